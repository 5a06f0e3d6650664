import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, type PoolOptions } from '../../src/conversion/pool.ts';
import { waitUntil } from './support/waitUntil.ts';

/**
 * A stand-in for a module worker: the far end of a real MessageChannel serving a real Comlink API, so the pool's
 * own logic (dispatch, abort, crash recovery, idle shutdown) runs unchanged in Node.
 */
class ChannelWorker extends EventTarget {
  static created: ChannelWorker[] = [];
  /** Every `work` call that has begun in any worker, in order, with the worker it began in. */
  static started: { name: string; worker: ChannelWorker }[] = [];
  readonly port: MessagePort;
  terminated = false;
  private readonly inside: MessagePort;
  private readonly pending = new Map<string, () => void>();

  constructor() {
    super();
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.inside = channel.port2;
    const api = {
      /** Resolves when the test releases it, so the test controls timing. */
      work: (name: string) =>
        new Promise<string>((resolve) => {
          ChannelWorker.started.push({ name, worker: this });
          this.pending.set(name, () => resolve(`${name} done`));
        }),
      fail: async (message: string) => {
        throw new Error(message);
      },
    };
    Comlink.expose(api, this.inside);
    ChannelWorker.created.push(this);
  }

  release(name: string) {
    this.pending.get(name)?.();
  }

  postMessage(message: unknown, transfer?: Transferable[]) {
    this.port.postMessage(message, transfer ?? []);
  }

  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
    if (type === 'message') this.port.addEventListener('message', listener as EventListener);
    else super.addEventListener(type, listener);
  }

  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
    if (type === 'message') this.port.removeEventListener('message', listener as EventListener);
    else super.removeEventListener(type, listener);
  }

  start() {
    this.port.start();
  }

  terminate() {
    this.terminated = true;
    this.port.close();
    this.inside.close();
  }

  crash(message: string) {
    const event = new Event('error', { cancelable: true }) as Event & { message: string };
    event.message = message;
    this.dispatchEvent(event);
  }
}

type Api = { work: (name: string) => Promise<string>; fail: (message: string) => Promise<never> };

const startedNames = () => ChannelWorker.started.map((s) => s.name);

/** The worker a task runs in, once its work has begun there (messages cross a real channel, so this waits for it). */
async function workerRunning(name: string): Promise<ChannelWorker> {
  await waitUntil(() => expect(startedNames()).toContain(name));
  return ChannelWorker.started.findLast((s) => s.name === name)!.worker;
}

async function finish(name: string): Promise<void> {
  (await workerRunning(name)).release(name);
}

function makePool(options: Partial<PoolOptions> = {}) {
  return new WorkerPool<Api>(() => new ChannelWorker() as unknown as Worker, { size: 3, ...options });
}

afterEach(() => {
  for (const worker of ChannelWorker.created) worker.terminate();
  ChannelWorker.created = [];
  ChannelWorker.started = [];
});

describe('WorkerPool', () => {
  it('runs at most three at once and starts the next as soon as any worker is free', async () => {
    const pool = makePool();
    const taken: string[] = [];
    const results = ['a', 'b', 'c', 'd'].map((name) => pool.run((remote) => remote.work(name), { onStart: () => taken.push(name) }));
    await Promise.all(['a', 'b', 'c'].map(workerRunning));
    expect(taken).toEqual(['a', 'b', 'c']);
    expect(ChannelWorker.created).toHaveLength(3);
    await finish('b');
    expect(await results[1]).toBe('b done');
    expect(await workerRunning('d')).toBe(await workerRunning('b'));
    expect(taken).toEqual(['a', 'b', 'c', 'd']);
    expect(ChannelWorker.created).toHaveLength(3);
    for (const name of ['a', 'c', 'd']) await finish(name);
    expect(await Promise.all(results)).toEqual(['a done', 'b done', 'c done', 'd done']);
  });

  it('tells a task it runs alone only when nothing else runs or waits as it starts', async () => {
    const pool = makePool({ size: 2 });
    const told: Record<string, boolean> = {};
    const run = (name: string) =>
      pool.run((remote, { alone }) => {
        told[name] = alone;
        return remote.work(name);
      });
    // 'a' starts as it arrives, before 'b' and 'c' do: alone at that moment.
    const batch = [run('a'), run('b'), run('c')];
    await Promise.all(['a', 'b'].map(workerRunning));
    await finish('a');
    await workerRunning('c');
    await finish('b');
    await finish('c');
    await Promise.all(batch);
    const last = run('d');
    await finish('d');
    await last;
    expect(told).toEqual({ a: true, b: false, c: false, d: true });
  });

  it('does not count a task that gives way: one that starts beside it runs alone, and it starts and ends no batch', async () => {
    let asked = 0;
    const pool = makePool({ size: 2, yieldsForBatch: async () => (asked++, false), followUpMs: 100 });
    const told: Record<string, boolean> = {};
    const run = (name: string, givesWay = false) =>
      pool.run(
        (remote, { alone }) => {
          told[name] = alone;
          return remote.work(name);
        },
        { givesWay },
      );
    // An estimate's sample on an idle pool: nothing asked.
    const sample = run('sample', true);
    await workerRunning('sample');
    expect(asked).toBe(0);
    // Convert as it runs: the job is a batch of its own (asked) and alone.
    const job = run('job');
    await workerRunning('job');
    expect(asked).toBe(1);
    expect(told).toEqual({ sample: false, job: true });
    await finish('job');
    await job;
    // The sample ending later is not the batch's end: a job after followUpMs from the batch's end is asked afresh.
    await new Promise((resolve) => setTimeout(resolve, 150));
    await finish('sample');
    await sample;
    const next = run('next');
    await finish('next');
    await next;
    expect(asked).toBe(2);
    expect(told.next).toBe(true);
  });

  it('abort of a running task terminates its worker and a fresh one takes the next task', async () => {
    const pool = makePool();
    const controller = new AbortController();
    const aborted = pool.run((remote) => remote.work('slow'), { signal: controller.signal });
    const others = ['x', 'y'].map((name) => pool.run((remote) => remote.work(name)));
    const queued = pool.run((remote) => remote.work('next'));
    const slowWorker = await workerRunning('slow');
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(slowWorker.terminated).toBe(true);
    const fresh = await workerRunning('next');
    expect(fresh).not.toBe(slowWorker);
    expect(ChannelWorker.created).toHaveLength(4);
    await finish('next');
    expect(await queued).toBe('next done');
    for (const name of ['x', 'y']) await finish(name);
    await Promise.all(others);
  });

  it('abort of a waiting task removes it without touching any worker', async () => {
    const pool = makePool();
    const busy = ['a', 'b', 'c'].map((name) => pool.run((remote) => remote.work(name)));
    const controller = new AbortController();
    let taken = false;
    const waiting = pool.run((remote) => remote.work('never'), { signal: controller.signal, onStart: () => (taken = true) });
    const after = pool.run((remote) => remote.work('after'));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await finish('a');
    // The next in line after the aborted task is what the freed worker takes.
    await workerRunning('after');
    expect(taken).toBe(false);
    expect(startedNames()).not.toContain('never');
    for (const name of ['b', 'c', 'after']) await finish(name);
    await Promise.all([...busy, after]);
    expect(ChannelWorker.created.every((w) => !w.terminated)).toBe(true);
  });

  it('a worker that dies fails only its own task; the pool replaces it', async () => {
    const pool = makePool();
    const doomed = pool.run((remote) => remote.work('doomed'));
    const survivor = pool.run((remote) => remote.work('survivor'));
    const doomedWorker = await workerRunning('doomed');
    await workerRunning('survivor');
    doomedWorker.crash('out of memory');
    await expect(doomed).rejects.toMatchObject({ name: 'WorkerCrashedError', message: 'Worker stopped: out of memory' });
    expect(doomedWorker.terminated).toBe(true);
    const after = pool.run((remote) => remote.work('after'));
    expect(await workerRunning('after')).not.toBe(doomedWorker);
    await finish('survivor');
    await finish('after');
    expect(await survivor).toBe('survivor done');
    expect(await after).toBe('after done');
  });

  it('warm starts every worker and prepares each idle one', async () => {
    const pool = makePool();
    const prepared: string[] = [];
    pool.warm(async (remote) => prepared.push(await remote.work(`prepare ${prepared.length}`)));
    expect(ChannelWorker.created).toHaveLength(3);
    await waitUntil(() => expect(startedNames().filter((name) => name.startsWith('prepare'))).toHaveLength(3));
    const result = pool.run((remote) => remote.work('after-warm'));
    await workerRunning('after-warm');
    expect(ChannelWorker.created).toHaveLength(3);
    await finish('after-warm');
    expect(await result).toBe('after-warm done');
  });

  it('warm for fewer tasks than workers starts only the workers those tasks use', async () => {
    const pool = makePool();
    const prepared: string[] = [];
    pool.warm(async (remote) => prepared.push(await remote.work(`prepare ${prepared.length}`)), 1);
    expect(ChannelWorker.created).toHaveLength(1);
    await waitUntil(() => expect(startedNames().filter((name) => name.startsWith('prepare'))).toHaveLength(1));
    pool.warm(async (remote) => prepared.push(await remote.work(`prepare ${prepared.length}`)), 2);
    expect(ChannelWorker.created).toHaveLength(2);
  });

  it('warm asks a worker once for the same plan, again for another, and again after a failed warm-up', async () => {
    const pool = makePool({ size: 2 });
    const asked = new Map<string, number>();
    const prepare = (name: string, fails = false) => (remote: Comlink.Remote<Api>) => {
      asked.set(name, (asked.get(name) ?? 0) + 1);
      return fails ? remote.fail('no codec') : remote.work(name);
    };
    pool.warm(prepare('webp'), 2, 'webp');
    await waitUntil(() => expect(startedNames().filter((name) => name === 'webp')).toHaveLength(2));
    // Files validated one by one ask again as each is added: the same plan is not asked twice, even while it runs.
    pool.warm(prepare('webp'), 2, 'webp');
    for (const started of ChannelWorker.started.filter((s) => s.name === 'webp')) started.worker.release('webp');
    pool.warm(prepare('webp'), 2, 'webp');
    expect(asked.get('webp')).toBe(2);
    pool.warm(prepare('avif'), 2, 'avif');
    expect(asked.get('avif')).toBe(2);
    for (const started of ChannelWorker.started.filter((s) => s.name === 'avif')) started.worker.release('avif');
    // A warm-up that failed is asked again.
    pool.warm(prepare('jxl', true), 2, 'jxl');
    await waitUntil(() => {
      pool.warm(prepare('jxl'), 2, 'jxl');
      expect(asked.get('jxl')).toBe(4);
    });
    expect(ChannelWorker.created).toHaveLength(2);
  });

  it('a task that throws keeps its worker for the next one', async () => {
    const pool = makePool();
    await expect(pool.run((remote) => remote.fail('Failed to load image'))).rejects.toThrow('Failed to load image');
    const next = pool.run((remote) => remote.work('next'));
    await workerRunning('next');
    expect(ChannelWorker.created).toHaveLength(1);
    await finish('next');
    expect(await next).toBe('next done');
  });

  it('runs up to tasksPerWorker tasks in one worker before starting another', async () => {
    const pool = makePool({ size: 1, tasksPerWorker: 2 });
    const results = ['p', 'q', 'r'].map((name) => pool.run((remote) => remote.work(name)));
    const [p, q] = await Promise.all([workerRunning('p'), workerRunning('q')]);
    expect(p).toBe(q);
    expect(startedNames()).not.toContain('r');
    await finish('q');
    expect(await workerRunning('r')).toBe(p);
    expect(ChannelWorker.created).toHaveLength(1);
    await finish('p');
    await finish('r');
    expect(await Promise.all(results)).toEqual(['p done', 'q done', 'r done']);
  });

  it('aborting one task of a shared worker sends its neighbour back to the line, to run again in a fresh worker', async () => {
    const pool = makePool({ size: 1, tasksPerWorker: 2 });
    const controller = new AbortController();
    const aborted = pool.run((remote) => remote.work('cancelled'), { signal: controller.signal });
    const neighbour = pool.run((remote) => remote.work('neighbour'));
    const shared = await workerRunning('cancelled');
    await workerRunning('neighbour');
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await waitUntil(() => expect(ChannelWorker.created).toHaveLength(2));
    const fresh = await waitUntil(() => {
      const again = ChannelWorker.started.filter((s) => s.name === 'neighbour');
      expect(again).toHaveLength(2);
      return again[1]!.worker;
    });
    expect(shared.terminated).toBe(true);
    expect(fresh).not.toBe(shared);
    fresh.release('neighbour');
    expect(await neighbour).toBe('neighbour done');
  });

  it('ends a worker that stays idle for idleTimeoutMs, and starts a fresh one for the next task', async () => {
    const pool = makePool({ size: 1, idleTimeoutMs: 30 });
    const first = pool.run((remote) => remote.work('first'));
    const worker = await workerRunning('first');
    await finish('first');
    await first;
    expect(pool.workerCount).toBe(1);
    await waitUntil(() => expect(worker.terminated).toBe(true));
    expect(pool.workerCount).toBe(0);
    const second = pool.run((remote) => remote.work('second'));
    expect(await workerRunning('second')).not.toBe(worker);
    await finish('second');
    expect(await second).toBe('second done');
  });

  it('keeps a busy worker past the idle timeout', async () => {
    const pool = makePool({ size: 1, idleTimeoutMs: 10 });
    const long = pool.run((remote) => remote.work('long'));
    const worker = await workerRunning('long');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(worker.terminated).toBe(false);
    await finish('long');
    expect(await long).toBe('long done');
  });

  it('runs small tasks three at once but holds a large one until what runs beside it fits the budget', async () => {
    const pool = makePool({ budget: 100 });
    const run = (name: string, cost: number) => pool.run((remote) => remote.work(name), { cost });
    const small = ['s1', 's2', 's3'].map((name) => run(name, 10));
    await Promise.all(['s1', 's2', 's3'].map(workerRunning));
    const big = run('big', 90);
    const after = run('after', 10);
    await finish('s1');
    await finish('s2');
    // 10 still running + 90 fits; the task behind it waits its turn, first come first served.
    await workerRunning('big');
    expect(startedNames()).not.toContain('after');
    await finish('s3');
    await workerRunning('after');
    expect(pool.runningCost).toBe(100);
    await finish('big');
    await finish('after');
    await Promise.all([...small, big, after]);
    expect(pool.runningCost).toBe(0);
  });

  it('runs a task larger than the whole budget, alone', async () => {
    const pool = makePool({ budget: 100 });
    const first = pool.run((remote) => remote.work('first'), { cost: 10 });
    const huge = pool.run((remote) => remote.work('huge'), { cost: 500 });
    const small = pool.run((remote) => remote.work('small'), { cost: 1 });
    await workerRunning('first');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual(['first']);
    await finish('first');
    await workerRunning('huge');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual(['first', 'huge']);
    await finish('huge');
    await finish('small');
    expect(await Promise.all([first, huge, small])).toEqual(['first done', 'huge done', 'small done']);
  });

  it('gives a crashed or cancelled task\'s share of the budget back', async () => {
    const pool = makePool({ budget: 100 });
    const controller = new AbortController();
    const cancelled = pool.run((remote) => remote.work('cancelled'), { cost: 60, signal: controller.signal });
    const crashing = pool.run((remote) => remote.work('crashing'), { cost: 40 });
    const waiting = pool.run((remote) => remote.work('waiting'), { cost: 100 });
    await workerRunning('cancelled');
    (await workerRunning('crashing')).crash('boom');
    await expect(crashing).rejects.toMatchObject({ name: 'WorkerCrashedError' });
    expect(startedNames()).not.toContain('waiting');
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    await finish('waiting');
    expect(await waiting).toBe('waiting done');
  });

  it('runs one task fewer while it yields a core to the page, and its full width again once the time is up', async () => {
    const pool = makePool();
    pool.yieldOne(400);
    const results = ['a', 'b', 'c', 'd'].map((name) => pool.run((remote) => remote.work(name)));
    await Promise.all(['a', 'b'].map(workerRunning));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual(['a', 'b']);
    // A task ending makes room for one more, still one fewer than the pool's width.
    await finish('a');
    await workerRunning('c');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual(['a', 'b', 'c']);
    expect(pool.runningTasks).toBe(2);
    // Nothing ends; the time runs out, and the waiting task starts on its own.
    await workerRunning('d');
    expect(pool.runningTasks).toBe(3);
    for (const name of ['b', 'c', 'd']) await finish(name);
    expect(await Promise.all(results)).toEqual(['a done', 'b done', 'c done', 'd done']);
  });

  it('never yields its last task: a one-worker pool still runs', async () => {
    const pool = makePool({ size: 1 });
    pool.yieldOne(10_000);
    const only = pool.run((remote) => remote.work('only'));
    await finish('only');
    expect(await only).toBe('only done');
  });

  it('asks as each batch starts whether to run one task fewer, and keeps the answer until the batch is over', async () => {
    const answers = [true, false];
    let asked = 0;
    const pool = makePool({ size: 2, yieldsForBatch: async () => answers[asked++]! });
    // The first batch yields: two tasks, one at a time, and the pool is asked once.
    const first = ['a', 'b'].map((name) => pool.run((remote) => remote.work(name)));
    await workerRunning('a');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual(['a']);
    await finish('a');
    await finish('b');
    expect(await Promise.all(first)).toEqual(['a done', 'b done']);
    expect(asked).toBe(1);
    expect(pool.idle).toBe(true);
    // The next batch, asked afresh, runs at the full width.
    const second = ['c', 'd'].map((name) => pool.run((remote) => remote.work(name)));
    await Promise.all(['c', 'd'].map(workerRunning));
    expect(pool.runningTasks).toBe(2);
    expect(asked).toBe(2);
    for (const name of ['c', 'd']) await finish(name);
    await Promise.all(second);
  });

  it('keeps the answer for a batch that follows the last one within followUpMs (its looks), and asks again later', async () => {
    const answers = [true, false];
    let asked = 0;
    const pool = makePool({ size: 2, yieldsForBatch: async () => answers[asked++]!, followUpMs: 100 });
    const first = pool.run((remote) => remote.work('a'));
    await finish('a');
    await first;
    expect(asked).toBe(1);
    // Straight after: the same answer, one task at a time, and no question.
    const followUp = ['b', 'c'].map((name) => pool.run((remote) => remote.work(name)));
    await workerRunning('b');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual(['a', 'b']);
    expect(asked).toBe(1);
    await finish('b');
    await finish('c');
    await Promise.all(followUp);
    // Later than followUpMs after it: asked afresh, and the full width.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const later = ['d', 'e'].map((name) => pool.run((remote) => remote.work(name)));
    await Promise.all(['d', 'e'].map(workerRunning));
    expect(asked).toBe(2);
    expect(pool.runningTasks).toBe(2);
    for (const name of ['d', 'e']) await finish(name);
    await Promise.all(later);
  });

  it('starts a batch once it has the answer', async () => {
    let answer: (yields: boolean) => void = () => undefined;
    const pool = makePool({ size: 2, yieldsForBatch: () => new Promise((resolve) => (answer = resolve)) });
    const results = ['a', 'b'].map((name) => pool.run((remote) => remote.work(name)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual([]);
    expect(pool.idle).toBe(false);
    answer(false);
    await Promise.all(['a', 'b'].map(workerRunning));
    expect(pool.runningTasks).toBe(2);
    for (const name of ['a', 'b']) await finish(name);
    await Promise.all(results);
  });

  it('asks once its workers have warmed up: their work would disturb what the question times', async () => {
    let asked = 0;
    const pool = makePool({ size: 2, yieldsForBatch: async () => (asked++, false) });
    pool.warm((remote) => remote.work('warm-up'));
    await workerRunning('warm-up');
    const task = pool.run((remote) => remote.work('a'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toBe(0);
    expect(startedNames()).not.toContain('a');
    for (const started of ChannelWorker.started.filter((s) => s.name === 'warm-up')) started.worker.release('warm-up');
    await workerRunning('a');
    expect(asked).toBe(1);
    await finish('a');
    expect(await task).toBe('a done');
  });

  it('does not wait for a warm-up whose worker was ended: the next batch is asked, and runs', async () => {
    let asked = 0;
    const pool = makePool({ size: 2, yieldsForBatch: async () => (asked++, false) });
    pool.warm((remote) => remote.work('warm-up'));
    await waitUntil(() => expect(startedNames().filter((name) => name === 'warm-up')).toHaveLength(2));
    // A task starts beside the warm-ups (a sample: it asks nothing) and is aborted, which ends its worker.
    const controller = new AbortController();
    const sample = pool.run((remote) => remote.work('sample'), { givesWay: true, signal: controller.signal });
    const sampleWorker = await workerRunning('sample');
    controller.abort();
    await expect(sample).rejects.toMatchObject({ name: 'AbortError' });
    expect(sampleWorker.terminated).toBe(true);
    // The other worker's warm-up ends; the ended one's never will, and the batch does not wait for it.
    for (const started of ChannelWorker.started.filter((s) => s.name === 'warm-up' && s.worker !== sampleWorker)) started.worker.release('warm-up');
    const job = pool.run((remote) => remote.work('job'));
    await finish('job');
    expect(await job).toBe('job done');
    expect(asked).toBe(1);
  });

  it('a warm-up that never settles holds a batch no longer than warmUpWaitMs: it is asked, and runs', async () => {
    let asked = 0;
    const pool = makePool({ size: 2, yieldsForBatch: async () => (asked++, false), warmUpWaitMs: 60 });
    pool.warm((remote) => remote.work('warm-up'));
    await waitUntil(() => expect(startedNames().filter((name) => name === 'warm-up')).toHaveLength(2));
    const job = pool.run((remote) => remote.work('job'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toBe(0);
    await workerRunning('job');
    expect(asked).toBe(1);
    await finish('job');
    expect(await job).toBe('job done');
  });

  it('starts no warm-up while a batch waits for its answer: the question may be timing the page', async () => {
    let answer: (yields: boolean) => void = () => undefined;
    const pool = makePool({ size: 2, yieldsForBatch: () => new Promise((resolve) => (answer = resolve)) });
    const task = pool.run((remote) => remote.work('a'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    pool.warm((remote) => remote.work('warm-up'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(startedNames()).toEqual([]);
    answer(false);
    await workerRunning('a');
    expect(startedNames()).toEqual(['a']);
    await finish('a');
    expect(await task).toBe('a done');
  });

  it('says whether two or more tasks were running at a moment, and still are', async () => {
    const pool = makePool();
    const before = performance.now();
    const first = pool.run((remote) => remote.work('first'));
    await workerRunning('first');
    expect(pool.crowdedAt(performance.now())).toBe(false);
    const second = pool.run((remote) => remote.work('second'));
    await workerRunning('second');
    expect(pool.crowdedAt(performance.now())).toBe(true);
    // A moment before the second task started was not crowded (a long task then was not the workers' doing).
    expect(pool.crowdedAt(before)).toBe(false);
    await finish('first');
    await first;
    expect(pool.crowdedAt(performance.now())).toBe(false);
    await finish('second');
    await second;
  });
});
