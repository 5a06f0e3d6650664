import * as Comlink from 'comlink';
import type { ConversionProgress, ConvertRequest, ConvertResult, ConvertWorkerApi, JudgeRequest, KeepWorkerApi, OutputLook, ThumbnailWorkerApi, ZipWorkerApi } from '../../core/contract.ts';
import { conversionBudget, deviceMemoryGb } from '../../core/memory.ts';
import { isSlowPage, probePageSpeed } from './pageSpeed.ts';
import { WorkerPool, type RunOptions } from './pool.ts';

/** The workers behind bridge.ts, which loads this module on first use; nothing else imports it. */

/** The spec's batch size: three conversions at once, each in its own worker. */
export const CONVERSION_SLOTS = 3;

/**
 * Conversions are CPU-bound: on a device with fewer cores than slots, a third job finishes no sooner and holds a
 * third image's memory (docs/decisions/memory-budget.md), so the pool has no more workers than cores.
 */
function conversionWorkers(): number {
  const cores = deviceCores();
  return cores ? Math.min(CONVERSION_SLOTS, cores) : CONVERSION_SLOTS;
}

function deviceCores(): number | null {
  const cores = globalThis.navigator?.hardwareConcurrency;
  return typeof cores === 'number' && cores > 0 ? cores : null;
}

/**
 * Whether a batch leaves the page a core: when the workers would take every core (`workers` as many as `cores`) and
 * the page's own thread is slow now. A slow thread needs a core of its own to answer a tap in time; sharing one
 * with two CPU-bound workers, it made long tasks and slow taps all through a batch (docs/decisions/leave-the-page-a-core.md).
 * A fast thread does its little work between the workers' time slices, and a phone with more cores than slots
 * always has one spare.
 */
export async function leavesPageACore({ cores, workers, pageSlow }: { cores: number | null; workers: number; pageSlow: () => Promise<boolean> }): Promise<boolean> {
  return cores !== null && workers >= cores && workers > 1 && (await pageSlow());
}

/**
 * An idle conversion worker is ended after 30 s, giving its WASM heap back (a large encode grows a heap by several
 * times the image's pixels, and a heap never shrinks). Squoosh ends its worker after 10 s; a batch tool warms its
 * workers when files are added, and 30 s leaves a visitor time to type an e-mail address before Convert without
 * losing that warm-up.
 */
const CONVERT_IDLE_MS = 30_000;

function lazily<T>(create: () => T): () => T {
  let value: T | null = null;
  return () => (value ??= create());
}

/**
 * How long the conversion pool runs one job fewer after the page's own thread was starved (yieldToStarvedPage). Long
 * enough that a batch on a slow phone is not janky every few seconds as the pool tries its full width again; short
 * enough that a one-off long task does not slow the rest of a long batch.
 */
const YIELD_MS = 10_000;

/** Two long tasks this close together, both while jobs share the cores, and the page is starved. */
const STARVED_WITHIN_MS = 2_000;

/**
 * Tells, long task by long task (their start times), whether the page is starved: a second long task within
 * `withinMs` of the one before, both while `crowdedAt` says two or more jobs were running. One long task is not
 * enough: the page's own work makes one now and then (the queue's rows appearing as a batch starts), cores or not.
 */
export function starvationWatch(crowdedAt: (time: number) => boolean, withinMs = STARVED_WITHIN_MS): (startTime: number) => boolean {
  let previous = -Infinity;
  return (startTime) => {
    if (!crowdedAt(startTime)) return false;
    const starved = startTime - previous <= withinMs;
    previous = startTime;
    return starved;
  };
}

/**
 * Gives the page a core back while the conversions starve it. With as many workers as cores, the UI thread waits
 * for a core: with the page's CPU 4× slower on a 2-core machine, taps waited and the frames after each job were
 * long tasks, and nearly all of that went away with one worker fewer (docs/decisions/leave-the-page-a-core.md). So while the page is
 * starved (starvationWatch) the pool runs one job fewer for a while; where the page keeps up (a spare core, a fast
 * one) nothing changes. Browsers without Long Tasks (Firefox, Safari) keep the width.
 */
function yieldToStarvedPage(pool: WorkerPool<ConvertWorkerApi>): void {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('longtask')) return;
  const starved = starvationWatch((time) => pool.crowdedAt(time));
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) if (starved(task.startTime)) pool.yieldOne(YIELD_MS);
  }).observe({ type: 'longtask' });
}

/**
 * A batch that starts this soon after the last one ended is its follow-up (PoolOptions.followUpMs). Short: a page's
 * speed is asked afresh for the next thing a visitor starts (the next Convert, a Preview). An estimate's samples give
 * way (RunOptions.givesWay): they run one at a time, whatever the answer, and ask nothing.
 */
const BATCH_FOLLOW_UP_MS = 500;

export const convertPool = lazily(() => {
  const pool = new WorkerPool<ConvertWorkerApi>(() => new Worker(new URL('../../workers/convert.worker.ts', import.meta.url), { type: 'module', name: 'convert' }), {
    size: conversionWorkers(),
    idleTimeoutMs: CONVERT_IDLE_MS,
    budget: conversionBudget(deviceMemoryGb()),
    // Timed as batches start, not once: a phone slows down when it is hot or saving its battery.
    yieldsForBatch: () => leavesPageACore({ cores: deviceCores(), workers: conversionWorkers(), pageSlow: async () => isSlowPage(await probePageSpeed()) }),
    // A batch's looks, judged as soon as its last job ends, are not timed again: the probe is one task of 25–45 ms of
    // the thread's time on a phone 4–6× slower, and it fell among the frames that show the batch's end.
    followUpMs: BATCH_FOLLOW_UP_MS,
  });
  yieldToStarvedPage(pool);
  return pool;
});

/**
 * Two previews at a time in one worker: enough to keep the grid filling, little enough to leave the pool its cores.
 * Previews come in a burst when files are added; the worker ends a second after it, so what its decodes held is
 * given back before Convert.
 */
export const thumbnailPool = lazily(
  () =>
    new WorkerPool<ThumbnailWorkerApi>(() => new Worker(new URL('../../workers/thumbnail.worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' }), {
      size: 1,
      tasksPerWorker: 2,
      idleTimeoutMs: 1_000,
    }),
);

/** A zip worker holds the archive while it builds it, so it is ended as soon as it is done. */
export const zipPool = lazily(
  () =>
    new WorkerPool<ZipWorkerApi>(() => new Worker(new URL('../../workers/zip.worker.ts', import.meta.url), { type: 'module', name: 'zip' }), {
      size: 1,
      idleTimeoutMs: 0,
    }),
);

/**
 * Sources copied onto the device one at a time once a batch is under way (DeviceBatch): disk work, little CPU, and a
 * copy at a time leaves the conversions their cores. Ended a second after the last copy.
 */
export const keepPool = lazily(
  () =>
    new WorkerPool<KeepWorkerApi>(() => new Worker(new URL('../../workers/keep.worker.ts', import.meta.url), { type: 'module', name: 'keep' }), {
      size: 1,
      idleTimeoutMs: 1_000,
    }),
);

/** How an output looks beside its source's view, in the conversion pool; the view is transferred, not copied. */
export function judgeInPool(request: JudgeRequest, options: RunOptions & { cost: number }): Promise<OutputLook> {
  return convertPool().run((remote) => remote.judge(Comlink.transfer(request, [request.source.view.data.buffer])), options);
}

/** One conversion in the pool; progress comes back through a Comlink proxy of `onProgress`. */
export function convertInPool(request: Omit<ConvertRequest, 'alone'>, onProgress: (progress: ConversionProgress) => void, options: RunOptions & { cost: number }): Promise<ConvertResult> {
  return convertPool().run((remote, { alone }) => remote.convert({ ...request, alone }, Comlink.proxy(onProgress)), options);
}
