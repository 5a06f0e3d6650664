import { describe, expect, it, vi } from 'vitest';
import type { ConvertOptions, Converter } from '../../src/conversion/bridge.ts';
import type { ConversionSettings, ConvertResult, JudgeRequest, LookSource, OutputLook } from '../../core/contract.ts';
import { AbortedError, WorkerCrashedError } from '../../src/conversion/pool.ts';
import { ConversionQueue, HAND_OVER_WINDOW, LOOKS_KEPT_FOR_LATER, WORKER_NEWS_EVERY_MS, type RunSummary } from '../../src/conversion/conversionQueue.ts';
import type { JobRecord } from '../../src/conversion/batchRecord.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { waitUntil } from './support/waitUntil.ts';

interface Call {
  file: Blob;
  settings: ConversionSettings;
  options: ConvertOptions;
  resolve: (result: ConvertResult) => void;
  reject: (error: unknown) => void;
}

/**
 * A converter the test drives by hand, standing in for the worker bridge (the queue's collaborator, not the code
 * under test). It honours the abort signal as the pool does.
 */
function manualConverter() {
  const calls: Call[] = [];
  const convert: Converter = (file, settings, options) =>
    new Promise<ConvertResult>((resolve, reject) => {
      options.signal?.addEventListener('abort', () => reject(new AbortedError()), { once: true });
      calls.push({ file, settings, options, resolve, reject });
    });
  const callFor = async (name: string) => waitUntil(() => {
    const call = calls.findLast((c) => (c.file as File).name === name);
    if (!call) throw new Error(`${name} has not been handed to the converter`);
    return call;
  });
  return { convert, calls, callFor };
}

const image = (name: string) => new File([new Uint8Array(200)], name, { type: 'image/png' });
/** Files picked on their own, in no folder. */
const loose = (files: readonly File[]) => files.map((file) => ({ file, folder: '' }));
const output = (bytes: number, type = 'image/webp'): ConvertResult => ({ blob: new Blob([new Uint8Array(bytes)], { type }), encodes: 1, route: 'bitmap', keptOriginal: null, grewBecause: null, look: null, lookSource: null, width: 40, height: 30, kept: 'memory', crc32: null });

function makeQueue() {
  const converter = manualConverter();
  const summaries: RunSummary[] = [];
  const queue = new ConversionQueue({ convert: converter.convert, onRunFinished: (summary) => summaries.push(summary) });
  const job = (name: string) => queue.getJobs().find((j) => j.file.name === name);
  return { queue, summaries, job, ...converter };
}

describe('ConversionQueue', () => {
  it('run: each file becomes a pending job, is handed to the converter with the settings, and completes with its output', async () => {
    const { queue, job, callFor, summaries } = makeQueue();
    const settings = { ...DEFAULT_SETTINGS, outputFormat: 'jpeg' as const };
    queue.start(loose([image('a.png'), image('b.png')]), settings);
    expect(queue.getJobs().map((j) => [j.file.name, j.status, j.outputFormat])).toEqual([
      ['a.png', 'pending', 'jpeg'],
      ['b.png', 'pending', 'jpeg'],
    ]);
    expect(queue.isConverting()).toBe(true);

    const a = await callFor('a.png');
    expect(a.settings).toBe(settings);
    a.options.onStart?.();
    expect(job('a.png')?.status).toBe('processing');
    a.options.onProgress({ percent: 45 });
    expect(job('a.png')?.progress).toBe(45);
    a.resolve({ ...output(120, 'image/jpeg'), crc32: 0xcafe });
    await waitUntil(() => expect(job('a.png')?.status).toBe('completed'));
    expect(job('a.png')).toMatchObject({ progress: 100, outputSize: 120, outputName: 'a.jpg', outputCrc32: 0xcafe, error: null });
    expect(summaries).toEqual([]);

    const b = await callFor('b.png');
    b.options.onStart?.();
    b.resolve(output(80, 'image/jpeg'));
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: 2, failed: 0, outputBytes: 200 }]));
    expect(queue.isConverting()).toBe(false);
  });

  it('the status view stays the same list through progress, and is a new one when a job starts, ends or goes', async () => {
    const { queue, callFor } = makeQueue();
    queue.start(loose([image('a.png'), image('b.png')]), DEFAULT_SETTINGS);
    const queued = queue.getJobsByStatus();
    expect(queued.map((j) => j.status)).toEqual(['pending', 'pending']);
    const a = await callFor('a.png');
    a.options.onStart?.();
    const started = queue.getJobsByStatus();
    expect(started).not.toBe(queued);
    expect(started[0]!.status).toBe('processing');
    a.options.onProgress({ percent: 45 });
    a.options.onProgress({ percent: 60 });
    expect(queue.getJobs()[0]!.progress).toBe(60);
    expect(queue.getJobsByStatus()).toBe(started);
    a.resolve(output(120));
    await waitUntil(() => expect(queue.getJobsByStatus()[0]!.status).toBe('completed'));
    const ended = queue.getJobsByStatus();
    queue.cancel(queue.getJobs()[1]!.id);
    expect(queue.getJobsByStatus()).not.toBe(ended);
    expect(queue.getJobsByStatus().map((j) => j.file.name)).toEqual(['a.png']);
  });

  it('outputs taken away can be let go while the rest converts: only completed ones count, and only they go', async () => {
    const { queue, callFor, job } = makeQueue();
    queue.start(loose([image('a.png'), image('b.png'), image('c.png')]), DEFAULT_SETTINGS);
    (await callFor('a.png')).resolve(output(10));
    await waitUntil(() => expect(job('a.png')?.status).toBe('completed'));
    // b is still converting: marked, it does not count.
    queue.markDelivered([job('a.png')!.id, job('b.png')!.id]);
    expect(queue.deliveredCount()).toBe(1);
    queue.clearDelivered();
    expect(queue.getJobs().map((j) => j.file.name)).toEqual(['b.png', 'c.png']);
    expect(queue.deliveredCount()).toBe(0);
    (await callFor('b.png')).resolve(output(10));
    (await callFor('c.png')).resolve(output(10));
    await waitUntil(() => expect(queue.isConverting()).toBe(false));
    expect(queue.deliveredCount()).toBe(0);
    queue.markDelivered([job('c.png')!.id]);
    expect(queue.deliveredCount()).toBe(1);
    // A job that goes another way (Clear finished) is no longer counted.
    queue.clearFinished();
    expect(queue.deliveredCount()).toBe(0);
  });

  it('cancel: aborts the running conversion and removes the job; its late result is ignored', async () => {
    const { queue, callFor, job, summaries } = makeQueue();
    queue.start(loose([image('keep.png'), image('drop.png')]), DEFAULT_SETTINGS);
    const drop = await callFor('drop.png');
    drop.options.onStart?.();
    const id = job('drop.png')!.id;
    queue.cancel(id);
    expect(drop.options.signal?.aborted).toBe(true);
    expect(job('drop.png')).toBeUndefined();
    drop.resolve(output(10));
    const keep = await callFor('keep.png');
    keep.resolve(output(10));
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: 1, failed: 0, outputBytes: 10 }]));
    expect(queue.getJobs().map((j) => j.file.name)).toEqual(['keep.png']);
  });

  it('cancelling every job ends the run with nothing to report and leaves the queue usable', async () => {
    const { queue, callFor, job, summaries } = makeQueue();
    queue.start(loose([image('only.png')]), DEFAULT_SETTINGS);
    await callFor('only.png');
    queue.cancel(job('only.png')!.id);
    expect(queue.getJobs()).toEqual([]);
    expect(queue.isConverting()).toBe(false);
    expect(summaries).toEqual([]);
    queue.start(loose([image('again.png')]), DEFAULT_SETTINGS);
    (await callFor('again.png')).resolve(output(10));
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: 1, failed: 0, outputBytes: 10 }]));
  });

  it('a crashed worker fails only its job, with the catalogue message; the others complete', async () => {
    const { queue, callFor, job, summaries } = makeQueue();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    queue.start(loose([image('crash.png'), image('fine.png')]), DEFAULT_SETTINGS);
    (await callFor('crash.png')).reject(new WorkerCrashedError('out of memory'));
    (await callFor('fine.png')).resolve(output(50));
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: 1, failed: 1, outputBytes: 50 }]));
    expect(job('crash.png')).toMatchObject({ status: 'error', progress: 0, error: 'Conversion failed' });
    expect(job('fine.png')?.status).toBe('completed');
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it('a failure with a catalogue message shows that message', async () => {
    const { queue, callFor, job } = makeQueue();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    queue.start(loose([image('broken.png')]), DEFAULT_SETTINGS);
    (await callFor('broken.png')).reject(new Error('Failed to load image'));
    await waitUntil(() => expect(job('broken.png')).toMatchObject({ status: 'error', error: 'Failed to load image' }));
    vi.restoreAllMocks();
  });

  it('retry: runs a failed job again with the current settings, and reports a run of its own', async () => {
    const { queue, callFor, job, summaries, calls } = makeQueue();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    queue.start(loose([image('flaky.png')]), DEFAULT_SETTINGS);
    (await callFor('flaky.png')).reject(new Error('Compression failed'));
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: 0, failed: 1, outputBytes: 0 }]));

    const avif = { ...DEFAULT_SETTINGS, outputFormat: 'avif' as const };
    queue.retry(job('flaky.png')!.id, avif);
    expect(job('flaky.png')).toMatchObject({ status: 'pending', error: null, outputFormat: 'avif' });
    await waitUntil(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.settings).toBe(avif);
    calls[1]!.resolve(output(30, 'image/avif'));
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: 0, failed: 1, outputBytes: 0 }, { succeeded: 1, failed: 0, outputBytes: 30 }]));
    expect(job('flaky.png')).toMatchObject({ status: 'completed', outputName: 'flaky.avif' });
    vi.restoreAllMocks();
  });

  it('retry does nothing for a job that has not failed', async () => {
    const { queue, callFor, job, calls } = makeQueue();
    queue.start(loose([image('done.png')]), DEFAULT_SETTINGS);
    (await callFor('done.png')).resolve(output(10));
    await waitUntil(() => expect(job('done.png')?.status).toBe('completed'));
    queue.retry(job('done.png')!.id, DEFAULT_SETTINGS);
    expect(calls).toHaveLength(1);
    expect(job('done.png')?.status).toBe('completed');
  });

  it('subscribers hear of a burst of changes once', async () => {
    const { queue, callFor } = makeQueue();
    const listener = vi.fn();
    queue.subscribe(listener);
    queue.start(loose([image('x.png')]), DEFAULT_SETTINGS);
    const x = await callFor('x.png');
    listener.mockClear();
    x.options.onStart?.();
    x.options.onProgress({ percent: 20 });
    x.options.onProgress({ percent: 30 });
    await waitUntil(() => expect(listener).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listener).toHaveBeenCalledTimes(1);
    queue.dispose();
  });

  it("the workers' reports reach subscribers at most every WORKER_NEWS_EVERY_MS; what the visitor does, at the next frame", async () => {
    const { queue, callFor, job } = makeQueue();
    const heard: number[] = [];
    let reportNow: (() => void) | null = null;
    let reportedAt = 0;
    queue.subscribe(() => {
      heard.push(performance.now());
      // Reports straight after a notify (in its own listener, so the timing does not hang on the test's polling).
      if (!reportNow) return;
      reportedAt = performance.now();
      reportNow();
      reportNow = null;
    });
    queue.start(loose([image('x.png'), image('y.png'), image('z.png')]), DEFAULT_SETTINGS);
    const x = await callFor('x.png');
    reportNow = () => {
      x.options.onStart?.();
      x.options.onProgress({ percent: 20 });
    };
    // The visitor's Cancel is told at the next frame; the reports made as it is told wait for the cadence, and come together.
    const before = heard.length;
    queue.cancel(job('z.png')!.id);
    await waitUntil(() => expect(heard).toHaveLength(before + 2));
    const [told, reported] = heard.slice(before) as [number, number];
    expect(reported - told).toBeGreaterThanOrEqual(WORKER_NEWS_EVERY_MS - 1);
    expect(reported - reportedAt).toBeGreaterThan(WORKER_NEWS_EVERY_MS / 2);
    expect(job('x.png')?.progress).toBe(20);
    // A report, then the visitor's Cancel before its turn: both are told at once, without the wait.
    x.options.onProgress({ percent: 40 });
    const cancelledAt = performance.now();
    queue.cancel(job('y.png')!.id);
    await waitUntil(() => expect(heard).toHaveLength(before + 3));
    expect(heard[before + 2]! - cancelledAt).toBeLessThan(WORKER_NEWS_EVERY_MS / 2);
    expect(job('y.png')).toBeUndefined();
    expect(job('x.png')?.progress).toBe(40);
    queue.dispose();
  });

  it('hands a long batch to the converter a few jobs at a time, the next as one ends, in order; a cancelled waiting job is never handed over', async () => {
    const { queue, calls, callFor, job, summaries } = makeQueue();
    const names = Array.from({ length: 20 }, (_, i) => `img-${i}.png`);
    queue.start(loose(names.map(image)), DEFAULT_SETTINGS);
    await callFor(`img-${HAND_OVER_WINDOW - 1}.png`);
    expect(calls.map((c) => (c.file as File).name)).toEqual(names.slice(0, HAND_OVER_WINDOW));
    expect(queue.getJobs().every((j) => j.status === 'pending')).toBe(true);
    queue.cancel(job(`img-${HAND_OVER_WINDOW}.png`)!.id);
    calls[0]!.resolve(output(10));
    await callFor(`img-${HAND_OVER_WINDOW + 1}.png`);
    expect(calls).toHaveLength(HAND_OVER_WINDOW + 1);
    expect(job('img-0.png')?.status).toBe('completed');
    for (let i = 1; i < names.length - 1; i++) {
      const call = await waitUntil(() => {
        if (!calls[i]) throw new Error(`call ${i} not handed over yet`);
        return calls[i]!;
      });
      call.resolve(output(10));
    }
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: names.length - 1, failed: 0, outputBytes: (names.length - 1) * 10 }]));
    expect(calls.map((c) => (c.file as File).name)).toEqual(names.filter((n) => n !== `img-${HAND_OVER_WINDOW}.png`));
  });
});

describe('ConversionQueue.whenIdle (what waits for a batch to end: the app update)', () => {
  it('runs at once when no batch is running, and after the run has settled when one is', async () => {
    const { queue, callFor } = makeQueue();
    const calls: string[] = [];
    queue.whenIdle(() => calls.push('idle at once'));
    expect(calls).toEqual(['idle at once']);

    queue.start(loose([image('a.png'), image('b.png')]), DEFAULT_SETTINGS);
    queue.whenIdle(() => calls.push('after the batch'));
    (await callFor('a.png')).resolve(output(10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual(['idle at once']);
    (await callFor('b.png')).resolve(output(10));
    await waitUntil(() => expect(calls).toEqual(['idle at once', 'after the batch']));
  });

  it('can be cancelled before the batch ends', async () => {
    const { queue, callFor } = makeQueue();
    const calls: string[] = [];
    queue.start(loose([image('a.png')]), DEFAULT_SETTINGS);
    const cancel = queue.whenIdle(() => calls.push('never'));
    cancel();
    (await callFor('a.png')).resolve(output(10));
    await waitUntil(() => expect(queue.isConverting()).toBe(false));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
  });
});

describe('ConversionQueue: looks judged after the batch', () => {
  /** A judge the test answers by hand, standing in for the worker that decodes and scores. */
  function judgingQueue() {
    const converter = manualConverter();
    const judged: { request: JudgeRequest; pixels: number; answer: (look: OutputLook) => void; fail: (error: unknown) => void }[] = [];
    const queue = new ConversionQueue({
      convert: converter.convert,
      onRunFinished: () => {},
      judge: (request, pixels) => new Promise<OutputLook>((answer, fail) => void judged.push({ request, pixels, answer, fail })),
    });
    const job = (name: string) => queue.getJobs().find((j) => j.file.name === name);
    return { queue, judged, job, ...converter };
  }
  const view = (): LookSource => ({ view: { data: new Uint8ClampedArray(16), width: 2, height: 2 }, tiles: [{ x: 0, y: 0, width: 2, height: 2 }] });
  const withView = (bytes: number): ConvertResult => ({ ...output(bytes), lookSource: view() });
  const look = (score: number): OutputLook => ({ score, smartQuality: null });

  it('asks for views to judge later; judges them only once the run has settled, and shows each look as it comes', async () => {
    const { queue, judged, job, callFor } = judgingQueue();
    queue.start(loose([image('a.png'), image('b.png')]), settings());
    const a = await callFor('a.png');
    expect(a.options.judgeLater).toBe(true);
    a.resolve(withView(10));
    await waitUntil(() => expect(job('a.png')).toMatchObject({ status: 'completed', look: null, lookPending: true }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(judged).toEqual([]);

    (await callFor('b.png')).resolve(withView(20));
    await waitUntil(() => expect(judged).toHaveLength(2));
    expect(judged[0]!.request.output).toBe(job('a.png')!.outputBlob);
    expect(judged[0]!.request.format).toBe('webp');
    expect(judged[0]!.pixels).toBe(40 * 30);
    judged[0]!.answer(look(81.5));
    await waitUntil(() => expect(job('a.png')).toMatchObject({ look: look(81.5), lookPending: false }));
    judged[1]!.fail(new Error('out of memory'));
    await waitUntil(() => expect(job('b.png')).toMatchObject({ look: null, lookPending: false }));
  });

  it('a job whose look is pending changes the settled view (the card and the kept record follow it)', async () => {
    const { queue, judged, callFor } = judgingQueue();
    queue.start(loose([image('a.png')]), settings());
    (await callFor('a.png')).resolve(withView(10));
    await waitUntil(() => expect(judged).toHaveLength(1));
    const before = queue.getJobsByStatus();
    judged[0]!.answer(look(70));
    await waitUntil(() => expect(queue.getJobsByStatus()).not.toBe(before));
    expect(queue.getJobsByStatus()[0]!.look).toEqual(look(70));
  });

  it('a run started while looks wait goes first; the looks are judged after it', async () => {
    const { queue, judged, callFor, job } = judgingQueue();
    queue.start(loose([image('a.png')]), settings());
    (await callFor('a.png')).resolve(withView(10));
    await waitUntil(() => expect(judged).toHaveLength(1));
    // Two more completed with views, then a new run opens before they are judged.
    queue.start(loose([image('b.png'), image('c.png'), image('d.png')]), settings());
    (await callFor('b.png')).resolve(withView(10));
    (await callFor('c.png')).resolve(withView(10));
    await waitUntil(() => expect(job('c.png')?.status).toBe('completed'));
    judged[0]!.answer(look(70));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(judged).toHaveLength(1);
    (await callFor('d.png')).resolve(withView(10));
    await waitUntil(() => expect(judged).toHaveLength(3));
  });

  it('looks kept waiting by a run that is then cancelled whole are judged as it ends', async () => {
    const { queue, judged, callFor } = judgingQueue();
    queue.start(loose([image('p.png'), image('q.png'), image('r.png')]), settings());
    for (const name of ['p.png', 'q.png', 'r.png']) (await callFor(name)).resolve(withView(10));
    await waitUntil(() => expect(judged).toHaveLength(2));
    // A new run opens before the first two looks come back: the third waits for it.
    queue.start(loose([image('s.png')]), settings());
    await callFor('s.png');
    judged[0]!.answer(look(70));
    judged[1]!.answer(look(71));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(judged).toHaveLength(2);
    queue.cancel(queue.getJobs().find((j) => j.file.name === 's.png')!.id);
    await waitUntil(() => expect(judged).toHaveLength(3));
  });

  it('keeps at most LOOKS_KEPT_FOR_LATER views: beyond them, jobs are judged as they convert', async () => {
    const { queue, calls, callFor } = judgingQueue();
    const names = Array.from({ length: LOOKS_KEPT_FOR_LATER + 4 }, (_, i) => `p${i}.png`);
    queue.start(loose(names.map(image)), settings());
    for (const name of names) (await callFor(name)).resolve(withView(10));
    await waitUntil(() => expect(calls).toHaveLength(names.length));
    const later = calls.filter((call) => call.options.judgeLater).length;
    expect(later).toBe(LOOKS_KEPT_FOR_LATER);
  });

  it('a cleared job\'s look is never judged; without a judge, nothing is asked to wait', async () => {
    const { queue, judged, callFor, job } = judgingQueue();
    queue.start(loose([image('a.png'), image('b.png')]), settings());
    (await callFor('a.png')).resolve(withView(10));
    await waitUntil(() => expect(job('a.png')?.status).toBe('completed'));
    queue.clearFinished();
    (await callFor('b.png')).resolve(withView(10));
    await waitUntil(() => expect(judged).toHaveLength(1));
    expect(judged[0]!.request.output).toBe(job('b.png')!.outputBlob);

    const plain = makeQueue();
    plain.queue.start(loose([image('c.png')]), settings());
    expect((await plain.callFor('c.png')).options.judgeLater).toBe(false);
  });
});

describe('ConversionQueue: outputs kept on the device', () => {
  function keepingQueue() {
    const converter = manualConverter();
    const discarded: string[] = [];
    let fullNotices = 0;
    const queue = new ConversionQueue({ convert: converter.convert, onRunFinished: () => {}, onStorageFull: () => fullNotices++ });
    queue.keepOnDeviceWith({ placeFor: (id, extension) => ({ store: 'opfs', name: `output-${id}.${extension}`, limitBytes: null }), discard: (place) => void discarded.push(place.name) });
    return { queue, discarded, notices: () => fullNotices, ...converter };
  }
  const settings = { ...DEFAULT_SETTINGS, outputFormat: 'webp' as const };

  it('keeps outputs in memory until it is given a place on the device', async () => {
    const { queue, callFor } = makeQueue();
    queue.start(loose([image('a.png')]), settings);
    expect((await callFor('a.png')).options.keepAt).toBeNull();
    expect(queue.keepsOnDevice()).toBe(false);
  });

  it("asks for each output to be kept at its own place, and remembers where a kept one is", async () => {
    const { queue, callFor } = keepingQueue();
    queue.start(loose([image('a.png')]), settings);
    const a = await callFor('a.png');
    const id = queue.getJobs()[0]!.id;
    expect(a.options.keepAt).toEqual({ store: 'opfs', name: `output-${id}.webp`, limitBytes: null });
    a.resolve({ ...output(10), kept: 'device' });
    await waitUntil(() => expect(queue.getJobs()[0]?.keptAt?.name).toBe(`output-${id}.webp`));
  });

  it('an output kept for a job cancelled while it was written is discarded', async () => {
    const { queue, callFor, discarded } = keepingQueue();
    queue.start(loose([image('a.png')]), settings);
    const a = await callFor('a.png');
    const id = queue.getJobs()[0]!.id;
    // The worker's result is on its way (written to the device) as the visitor cancels: it arrives for a job that is gone.
    a.resolve({ ...output(10), kept: 'device' });
    queue.cancel(id);
    await waitUntil(() => expect(discarded).toEqual([`output-${id}.webp`]));
  });

  it('a full device is said once; the rest of the run is kept in memory; the next run tries the device again', async () => {
    const { queue, callFor, calls, notices } = keepingQueue();
    const names = Array.from({ length: HAND_OVER_WINDOW + 2 }, (_, i) => `${String.fromCharCode(97 + i)}.png`);
    queue.start(loose(names.map(image)), settings);
    // The first ones are handed over together, each asked to be kept on the device.
    const first = await callFor(names[0]!);
    expect(first.options.keepAt).not.toBeNull();
    first.resolve({ ...output(10), kept: 'storage-full' });
    (await callFor(names[1]!)).resolve({ ...output(10), kept: 'storage-full' });
    await waitUntil(() => expect(notices()).toBe(1));
    expect(queue.keepsOnDevice()).toBe(false);
    // Those handed over after the device said it is full go to memory.
    expect((await callFor(names[HAND_OVER_WINDOW]!)).options.keepAt).toBeNull();
    expect((await callFor(names[HAND_OVER_WINDOW + 1]!)).options.keepAt).toBeNull();
    for (const call of calls.slice(2)) call.resolve(output(10));
    await waitUntil(() => expect(queue.isConverting()).toBe(false));
    expect(notices()).toBe(1);
    // A source that did not fit says the same, once.
    queue.storageFull();
    expect(notices()).toBe(1);

    queue.start(loose([image('z.png')]), settings);
    expect((await callFor('z.png')).options.keepAt).not.toBeNull();
  });
});

describe('ConversionQueue.restore (a batch a page before this one left on the device)', () => {
  it('lists completed and failed jobs as they were and converts the pending ones again, with their own settings, in a run of their own', async () => {
    const { queue, callFor, summaries } = makeQueue();
    const avif = { ...DEFAULT_SETTINGS, outputFormat: 'avif' as const };
    const record = (id: string, state: JobRecord['state'], extra: Partial<JobRecord> = {}): JobRecord => ({
      id,
      source: { name: `${id}.png`, type: 'image/png', size: 200, lastModified: 1 },
      settings: avif,
      state,
      attempts: 0,
      output: null,
      error: null,
      updatedAt: 1,
      ...extra,
    });
    const kept = { file: 'output-done.avif', name: 'done.avif', type: 'image/avif', size: 5, width: 4, height: 3, encodes: 1, keptOriginal: null };
    queue.restore([
      { record: record('done', 'completed', { output: kept }), source: new File([], 'done.png'), output: new Blob([new Uint8Array(5)]), outputPlace: { store: 'opfs', name: 'output-done.avif', limitBytes: null } },
      { record: record('failed', 'failed', { error: 'Conversion failed' }), source: image('failed.png'), output: null, outputPlace: null },
      { record: record('pending', 'unfinished', { attempts: 1 }), source: image('pending.png'), output: null, outputPlace: null },
    ]);
    expect(queue.getJobs().map((j) => [j.id, j.status])).toEqual([
      ['done', 'completed'],
      ['failed', 'error'],
      ['pending', 'pending'],
    ]);
    const call = await callFor('pending.png');
    expect(call.settings).toEqual(avif);
    call.options.onStart?.();
    expect(queue.getJob('pending')?.attempts).toBe(2);
    call.resolve(output(7, 'image/avif'));
    await waitUntil(() => expect(summaries).toEqual([{ succeeded: 1, failed: 0, outputBytes: 7 }]));
    // Retry of a restored failed job converts its kept source with the page's settings.
    queue.retry('failed', settings());
    expect((await callFor('failed.png')).settings.outputFormat).toBe('webp');
  });
});

const settings = () => ({ ...DEFAULT_SETTINGS, outputFormat: 'webp' as const });
