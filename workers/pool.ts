import * as Comlink from 'comlink';

export class AbortedError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'AbortError';
  }
}

/** The worker died under a job (out of memory, codec abort): only that job fails. */
export class WorkerCrashedError extends Error {
  constructor(detail?: string) {
    super(detail ? `Conversion failed: ${detail}` : 'Conversion failed');
    this.name = 'WorkerCrashedError';
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called when a worker takes the task, i.e. when it leaves the waiting line. */
  onStart?: () => void;
}

interface Task<Api, T> {
  work: (remote: Comlink.Remote<Api>) => Promise<T>;
  options: RunOptions;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

interface Slot<Api> {
  worker: Worker;
  remote: Comlink.Remote<Api>;
  busy: boolean;
  /** Fails the running task when the worker dies. */
  crash: ((detail?: string) => void) | null;
}

/**
 * A fixed number of Comlink-wrapped workers. A task starts as soon as any worker is free; aborting a
 * running task terminates its worker (the only way to stop WASM) and a fresh one takes its place.
 */
export class WorkerPool<Api> {
  private readonly slots: Slot<Api>[] = [];
  private readonly waiting: Task<Api, unknown>[] = [];

  constructor(
    private readonly createWorker: () => Worker,
    readonly size = 3,
  ) {}

  run<T>(work: (remote: Comlink.Remote<Api>) => Promise<T>, options: RunOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (options.signal?.aborted) return reject(new AbortedError());
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

  /**
   * Starts every worker now and runs `prepare` on each idle one, so the first real task does not pay for
   * worker start-up and codec compilation.
   */
  warm(prepare: (remote: Comlink.Remote<Api>) => Promise<unknown>): void {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    for (const slot of this.slots) if (!slot.busy) prepare(slot.remote).catch(() => undefined);
  }

  /** Stops every worker; the pool makes new ones if used again. */
  terminate(): void {
    for (const slot of this.slots.splice(0)) {
      slot.crash?.('stopped');
      slot.worker.terminate();
    }
  }

  private spawn(): Slot<Api> {
    const worker = this.createWorker();
    const slot: Slot<Api> = { worker, remote: Comlink.wrap<Api>(worker), busy: false, crash: null };
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      slot.crash?.(event.message || undefined);
    });
    return slot;
  }

  private freeSlot(): Slot<Api> | null {
    const idle = this.slots.find((slot) => !slot.busy);
    if (idle) return idle;
    if (this.slots.length < this.size) {
      const slot = this.spawn();
      this.slots.push(slot);
      return slot;
    }
    return null;
  }

  private replace(slot: Slot<Api>): void {
    slot.worker.terminate();
    slot.remote[Comlink.releaseProxy]();
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      const slot = this.freeSlot();
      if (!slot) return;
      this.start(slot, this.waiting.shift()!);
    }
  }

  private start(slot: Slot<Api>, task: Task<Api, unknown>): void {
    slot.busy = true;
    let settled = false;
    const finish = (outcome: () => void, workerIsBroken: boolean) => {
      if (settled) return;
      settled = true;
      task.options.signal?.removeEventListener('abort', onAbort);
      slot.crash = null;
      if (workerIsBroken) this.replace(slot);
      else slot.busy = false;
      outcome();
      this.pump();
    };
    const onAbort = () => finish(() => task.reject(new AbortedError()), true);
    slot.crash = (detail) => finish(() => task.reject(new WorkerCrashedError(detail)), true);
    task.options.signal?.addEventListener('abort', onAbort, { once: true });
    task.options.onStart?.();
    task.work(slot.remote).then(
      (value) => finish(() => task.resolve(value), false),
      (error: unknown) => finish(() => task.reject(error), false),
    );
  }
}
