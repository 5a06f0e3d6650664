import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../workers/pool';

/**
 * A stand-in for a module worker: the far end of a real MessageChannel serving a real Comlink API, so the pool's
 * own logic (dispatch, abort, crash recovery) runs unchanged in Node.
 */
class ChannelWorker extends EventTarget {
  static created: ChannelWorker[] = [];
  readonly port: MessagePort;
  terminated = false;
  private readonly inside: MessagePort;
  readonly started: string[] = [];
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
          this.started.push(name);
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

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
const workerRunning = (name: string) => ChannelWorker.created.find((w) => w.started.includes(name))!;

function makePool() {
  return new WorkerPool<Api>(() => new ChannelWorker() as unknown as Worker, 3);
}

afterEach(() => {
  for (const worker of ChannelWorker.created) worker.terminate();
  ChannelWorker.created = [];
});

describe('WorkerPool', () => {
  it('runs at most three at once and starts the next as soon as any worker is free', async () => {
    const pool = makePool();
    const started: string[] = [];
    const results = ['a', 'b', 'c', 'd'].map((name) => pool.run((remote) => remote.work(name), { onStart: () => started.push(name) }));
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(ChannelWorker.created).toHaveLength(3);
    workerRunning('b').release('b');
    expect(await results[1]).toBe('b done');
    await tick();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(ChannelWorker.created).toHaveLength(3);
    for (const name of ['a', 'c', 'd']) workerRunning(name).release(name);
    expect(await Promise.all(results)).toEqual(['a done', 'b done', 'c done', 'd done']);
  });

  it('abort of a running task terminates its worker and a fresh one takes the next task', async () => {
    const pool = makePool();
    const controller = new AbortController();
    const aborted = pool.run((remote) => remote.work('slow'), { signal: controller.signal });
    const others = ['x', 'y'].map((name) => pool.run((remote) => remote.work(name)));
    const queued = pool.run((remote) => remote.work('next'));
    await tick();
    const slowWorker = workerRunning('slow');
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(slowWorker.terminated).toBe(true);
    await tick();
    const fresh = workerRunning('next');
    expect(fresh).not.toBe(slowWorker);
    fresh.release('next');
    expect(await queued).toBe('next done');
    for (const name of ['x', 'y']) workerRunning(name).release(name);
    await Promise.all(others);
  });

  it('abort of a waiting task removes it without touching any worker', async () => {
    const pool = makePool();
    const busy = ['a', 'b', 'c'].map((name) => pool.run((remote) => remote.work(name)));
    const controller = new AbortController();
    let started = false;
    const waiting = pool.run((remote) => remote.work('never'), { signal: controller.signal, onStart: () => (started = true) });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await tick();
    for (const name of ['a', 'b', 'c']) workerRunning(name).release(name);
    await Promise.all(busy);
    expect(started).toBe(false);
    expect(ChannelWorker.created.every((w) => !w.terminated)).toBe(true);
  });

  it('a worker that dies fails only its own task, with a clear message; the pool replaces it', async () => {
    const pool = makePool();
    const doomed = pool.run((remote) => remote.work('doomed'));
    const survivor = pool.run((remote) => remote.work('survivor'));
    await tick();
    workerRunning('doomed').crash('out of memory');
    await expect(doomed).rejects.toThrow('Conversion failed: out of memory');
    const after = pool.run((remote) => remote.work('after'));
    await tick();
    workerRunning('survivor').release('survivor');
    workerRunning('after').release('after');
    expect(await survivor).toBe('survivor done');
    expect(await after).toBe('after done');
    expect(workerRunning('doomed').terminated).toBe(true);
  });

  it('warm starts every worker and prepares each idle one', async () => {
    const pool = makePool();
    const prepared: number[] = [];
    pool.warm(async () => void prepared.push(prepared.length));
    expect(ChannelWorker.created).toHaveLength(3);
    await tick();
    expect(prepared).toHaveLength(3);
    const result = pool.run((remote) => remote.work('after-warm'));
    await tick();
    expect(ChannelWorker.created).toHaveLength(3);
    workerRunning('after-warm').release('after-warm');
    expect(await result).toBe('after-warm done');
  });

  it('a task that throws keeps its worker for the next one', async () => {
    const pool = makePool();
    await expect(pool.run((remote) => remote.fail('Failed to load image'))).rejects.toThrow('Failed to load image');
    const next = pool.run((remote) => remote.work('next'));
    await tick();
    expect(ChannelWorker.created).toHaveLength(1);
    workerRunning('next').release('next');
    expect(await next).toBe('next done');
  });
});
