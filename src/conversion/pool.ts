import * as Comlink from 'comlink';
import { PoolWidth } from './poolWidth.ts';

export class AbortedError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'AbortError';
  }
}

/** The worker died under a task (out of memory, codec abort): only the tasks it was running fail. */
export class WorkerCrashedError extends Error {
  constructor(detail?: string) {
    super(detail ? `Worker stopped: ${detail}` : 'Worker stopped');
    this.name = 'WorkerCrashedError';
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called when a worker takes the task, i.e. when it leaves the waiting line. */
  onStart?: () => void;
  /** What the task holds while it runs, counted against the pool's budget (decoded bytes, for conversions). */
  cost?: number;
  /**
   * Work done ahead, in case (the batch's estimate), short and soon over: not counted when a task is told whether it
   * runs alone, nor when the pool decides whether a batch starts. A conversion started as a sample ends is alone, and
   * its threaded encoder takes the cores, not one for the rest of its run.
   */
  givesWay?: boolean;
}

export interface PoolOptions {
  /** How many workers at most. */
  size: number;
  /** Tasks one worker runs at once; they interleave at their awaits (1 for CPU-bound work). */
  tasksPerWorker?: number;
  /**
   * A worker with nothing to do is ended after this many milliseconds, so its memory (a WASM heap never shrinks)
   * goes back to the system; the pool starts a fresh one when needed. Null keeps idle workers.
   */
  idleTimeoutMs?: number | null;
  /**
   * What the running tasks may hold together (see RunOptions.cost). A task waits, first in line, until its cost
   * fits beside the running ones; a task that alone exceeds the budget runs when nothing else does.
   */
  budget?: number;
  /**
   * Asked as a task arrives at an idle pool (nothing running or waiting), i.e. as a batch starts: true makes the
   * pool run one task fewer than its width (never fewer than one) until it is idle again. The batch starts once the
   * answer has come, and the question waits for the workers' warm-up (warm) to be over: it may time the page
   * (pools.ts), which work in the workers would disturb, and the first jobs would mostly wait for their codecs anyway.
   */
  yieldsForBatch?: () => Promise<boolean>;
  /**
   * A batch that starts within this many milliseconds of the last one's end follows it (a batch's looks, judged as its
   * conversions end): it keeps the last batch's answer rather than asking again. 0, the default: every batch asks.
   * Tasks that give way (RunOptions.givesWay) neither start a batch nor end one.
   */
  followUpMs?: number;
  /**
   * The longest a batch waits for the workers' warm-ups before it is asked and starts: a warm-up that never settles
   * (a codec's download or compilation that hangs) must not hold the batch at "Waiting…" for good. Its jobs then load
   * what they need themselves. 10 s unless said.
   */
  warmUpWaitMs?: number;
}

/** What a task is told as it starts. */
export interface TaskStart {
  /** Nothing else runs or waits: the task may take every core (a threaded encoder). */
  alone: boolean;
}

interface Task<Api, T> {
  work: (remote: Comlink.Remote<Api>, start: TaskStart) => Promise<T>;
  options: RunOptions;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

interface Slot<Api> {
  worker: Worker;
  remote: Comlink.Remote<Api>;
  /** The running tasks, each with the way to end it as the worker goes away. */
  running: Map<Task<Api, unknown>, (outcome: 'crashed' | 'requeue', detail?: string) => void>;
  idleTimer: ReturnType<typeof setTimeout> | null;
  /**
   * Settles as the worker is ended. A call into a terminated worker never answers, so a warm-up that was under way in
   * it would hold every later batch's question (which waits for the warm-ups) for good: it ends with this instead.
   */
  ended: Promise<void>;
  markEnded: () => void;
  /** What the worker was last warmed up for (warm's `key`): it is not asked again for the same. */
  warmedFor: string | null;
}

/** PoolOptions.warmUpWaitMs's default: well past a warm-up's usual second or two, short of a visitor giving up. */
const WARM_UP_WAIT_MS = 10_000;

/**
 * Comlink-wrapped workers, started on demand up to `size`. A task starts as soon as a worker has room; aborting a
 * running task terminates its worker (the only way to stop WASM) and a fresh one takes its place, while the other
 * tasks that worker was running go back to the front of the line.
 */
export class WorkerPool<Api> {
  private readonly slots: Slot<Api>[] = [];
  private readonly waiting: Task<Api, unknown>[] = [];
  private readonly size: number;
  private readonly tasksPerWorker: number;
  private readonly idleTimeoutMs: number | null;
  private readonly budget: number;
  private readonly followUpMs: number;
  private readonly warmUpWaitMs: number;
  /** When the pool last became idle (performance.now()), for followUpMs. */
  private idleSince = -Infinity;
  private readonly yieldsForBatch: (() => Promise<boolean>) | null;
  private readonly width: PoolWidth;
  /** The workers' warm-ups (warm) not yet over. */
  private readonly warming = new Set<Promise<unknown>>();

  constructor(
    private readonly createWorker: () => Worker,
    { size, tasksPerWorker = 1, idleTimeoutMs = null, budget = Infinity, yieldsForBatch, followUpMs = 0, warmUpWaitMs = WARM_UP_WAIT_MS }: PoolOptions,
  ) {
    this.yieldsForBatch = yieldsForBatch ?? null;
    this.size = size;
    this.tasksPerWorker = tasksPerWorker;
    this.idleTimeoutMs = idleTimeoutMs;
    this.budget = budget;
    this.followUpMs = followUpMs;
    this.warmUpWaitMs = warmUpWaitMs;
    this.width = new PoolWidth(size * tasksPerWorker, () => this.pump());
  }

  /** Workers alive now (started and not yet ended). */
  get workerCount(): number {
    return this.slots.length;
  }

  /** The summed cost of the tasks running now. */
  get runningCost(): number {
    let total = 0;
    for (const slot of this.slots) for (const task of slot.running.keys()) total += task.options.cost ?? 0;
    return total;
  }

  /** The tasks running now. */
  get runningTasks(): number {
    let total = 0;
    for (const slot of this.slots) total += slot.running.size;
    return total;
  }

  /** Whether two or more tasks were running at `time` (performance.now()) and still are. */
  crowdedAt(time: number): boolean {
    return this.width.crowdedAt(time);
  }

  /**
   * Runs one task fewer at a time than the pool could (never fewer than one) for the next `forMs` milliseconds; a
   * later call extends it. For a page whose own thread the workers starve of CPU (pools.ts), a core handed back.
   */
  yieldOne(forMs: number): void {
    this.width.yieldOne(forMs);
  }

  /** Nothing running and nothing waiting. */
  get idle(): boolean {
    return this.runningTasks === 0 && this.waiting.length === 0;
  }

  /** No work at hand: what runs or waits, if anything, gives way. A task that does not, arriving, starts a batch. */
  private atRest(): boolean {
    const { running, waiting } = this.workAtHand();
    return running === 0 && waiting === 0;
  }

  /** The tasks running and waiting that do not give way (RunOptions.givesWay). */
  private workAtHand(): { running: number; waiting: number } {
    let running = 0;
    for (const slot of this.slots) for (const task of slot.running.keys()) if (!task.options.givesWay) running++;
    return { running, waiting: this.waiting.filter((task) => !task.options.givesWay).length };
  }

  run<T>(work: (remote: Comlink.Remote<Api>, start: TaskStart) => Promise<T>, options: RunOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (options.signal?.aborted) return reject(new AbortedError());
      if (!options.givesWay && this.atRest()) this.startBatch();
      const task = { work, options, resolve, reject } as Task<Api, unknown>;
      this.waiting.push(task);
      options.signal?.addEventListener(
        'abort',
        () => {
          const index = this.waiting.indexOf(task);
          if (index !== -1) {
            this.waiting.splice(index, 1);
            reject(new AbortedError());
          }
        },
        { once: true },
      );
      this.pump();
    });
  }

  private startBatch(): void {
    const followsTheLast = performance.now() - this.idleSince < this.followUpMs;
    if (this.yieldsForBatch && !followsTheLast) {
      const warmedOrWaited = Promise.race([Promise.all(this.warming), new Promise((resolve) => setTimeout(resolve, this.warmUpWaitMs))]);
      this.width.startBatch(this.yieldsForBatch, warmedOrWaited);
    }
  }

  /**
   * Starts the workers `tasks` will use (every one, or as many as there are tasks) and runs `prepare` on each idle
   * one, so the first real task does not pay for worker start-up and codec compilation; a worker the tasks would not
   * reach is not started for them (one photo warmed three workers, each compiling its codecs into memory of its own).
   * Not while a batch waits for its answer (yieldsForBatch): the question may be timing the page, and the batch's
   * tasks load what they need themselves. A worker warmed (or warming) for the same `key` is not asked again: files
   * validated one by one ask again as each is added, and a thousand would have asked each idle worker a thousand times.
   */
  warm(prepare: (remote: Comlink.Remote<Api>) => Promise<unknown>, tasks = this.size, key: string | null = null): void {
    if (this.width.asking) return;
    const wanted = Math.min(this.size, Math.max(1, Math.ceil(tasks / this.tasksPerWorker)));
    while (this.slots.length < wanted) this.slots.push(this.spawn());
    for (const slot of this.slots) {
      if (slot.running.size === 0 && (key === null || slot.warmedFor !== key)) {
        slot.warmedFor = key;
        // A warm-up that failed may be asked again.
        const warming = Promise.race([prepare(slot.remote), slot.ended]).catch(() => void (slot.warmedFor = null));
        this.warming.add(warming);
        void warming.then(() => this.warming.delete(warming));
        this.startIdleTimer(slot);
      }
    }
  }

  private spawn(): Slot<Api> {
    const worker = this.createWorker();
    let markEnded = () => {};
    const ended = new Promise<void>((resolve) => (markEnded = resolve));
    const slot: Slot<Api> = { worker, remote: Comlink.wrap<Api>(worker), running: new Map(), idleTimer: null, ended, markEnded, warmedFor: null };
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.endWorker(slot, 'crashed', event.message || undefined);
    });
    return slot;
  }

  private slotWithRoom(): Slot<Api> | null {
    const withRoom = this.slots.find((slot) => slot.running.size < this.tasksPerWorker);
    if (withRoom) return withRoom;
    if (this.slots.length < this.size) {
      const slot = this.spawn();
      this.slots.push(slot);
      return slot;
    }
    return null;
  }

  private startIdleTimer(slot: Slot<Api>): void {
    if (this.idleTimeoutMs === null || slot.idleTimer) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = null;
      if (slot.running.size === 0) this.endWorker(slot, 'crashed');
    }, this.idleTimeoutMs);
  }

  /**
   * Terminates a slot's worker and removes the slot. Its running tasks fail as crashed, or go back to the front of
   * the line when the worker is ended for another task's sake.
   */
  private endWorker(slot: Slot<Api>, outcome: 'crashed' | 'requeue', detail?: string): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.worker.terminate();
    slot.markEnded();
    slot.remote[Comlink.releaseProxy]();
    for (const end of slot.running.values()) end(outcome, detail);
    this.pump();
  }

  private fitsBudget(task: Task<Api, unknown>): boolean {
    const running = this.runningCost;
    return running === 0 || running + (task.options.cost ?? 0) <= this.budget;
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      // First come, first served: a large task is not overtaken by small ones, which could starve it.
      if (!this.fitsBudget(this.waiting[0]!) || this.runningTasks >= this.width.tasks) return;
      const slot = this.slotWithRoom();
      if (!slot) return;
      this.start(slot, this.waiting.shift()!);
    }
  }

  private start(slot: Slot<Api>, task: Task<Api, unknown>): void {
    if (slot.idleTimer) {
      clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
    }
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      task.options.signal?.removeEventListener('abort', onAbort);
      slot.running.delete(task);
      this.width.noteRunning(this.runningTasks);
      return true;
    };
    const finish = (outcome: () => void) => {
      if (!settle()) return;
      outcome();
      if (slot.running.size === 0 && this.slots.includes(slot)) this.startIdleTimer(slot);
      this.pump();
      if (!task.options.givesWay && this.atRest()) this.idleSince = performance.now();
    };
    const onAbort = () => {
      if (!settle()) return;
      task.reject(new AbortedError());
      this.endWorker(slot, 'requeue');
    };
    slot.running.set(task, (outcome, detail) => {
      if (!settle()) return;
      if (outcome === 'requeue') this.waiting.unshift(task);
      else task.reject(new WorkerCrashedError(detail));
    });
    this.width.noteRunning(this.runningTasks);
    task.options.signal?.addEventListener('abort', onAbort, { once: true });
    task.options.onStart?.();
    const atHand = this.workAtHand();
    const alone = !task.options.givesWay && atHand.running === 1 && atHand.waiting === 0;
    task.work(slot.remote, { alone }).then(
      (value) => finish(() => task.resolve(value)),
      (error: unknown) => finish(() => task.reject(error)),
    );
  }
}
