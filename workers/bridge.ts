import * as Comlink from 'comlink';
import { CONVERSION_ERRORS, isExplainedError, usesBrowserEncoder, type ConversionProgress, type ConversionSettings, type ConvertResult, type ZipEntry } from './contract';
import type { ConvertWorkerApi, WarmUpPlan } from './convert.worker';
import { formatInfo } from './formats';
import { decodedBytes, decodedBytesBudget, deviceMemoryGb, pixelLimit } from './memory';
import { planGeometry } from './pipeline/geometry';
import { probeImage } from './pipeline/probe';
import { WorkerPool, type RunOptions } from './pool';
import type { ThumbnailWorkerApi } from './thumbnail.worker';
import type { ZipWorkerApi } from './zip.worker';

/**
 * The UI thread's one way into workers/: every worker it uses (conversions, previews, zips) is started, warmed,
 * aborted and ended here, and worker failures come back as the spec's messages. Components never spawn a worker.
 */

/** The header probe reads the head of a file (at most 1 MB, 64 KB as a rule), cheap enough for the UI thread at intake. */
export { probeImage, type ImageHeader } from './pipeline/probe';

/** The most pixels one image may have on this device (memory.ts), for intake and for each conversion. */
export const devicePixelLimit = (): number => pixelLimit(deviceMemoryGb());

/** The spec's batch size: three conversions at once, each in its own worker. */
export const CONVERSION_SLOTS = 3;

/**
 * Conversions are CPU-bound: on a device with fewer cores than slots, a third job finishes no sooner and holds a
 * third image's memory (README, "Limits"), so the pool has no more workers than cores.
 */
function conversionWorkers(): number {
  const cores = globalThis.navigator?.hardwareConcurrency;
  return typeof cores === 'number' && cores > 0 ? Math.min(CONVERSION_SLOTS, cores) : CONVERSION_SLOTS;
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

const convertPool = lazily(
  () =>
    new WorkerPool<ConvertWorkerApi>(() => new Worker(new URL('./convert.worker.ts', import.meta.url), { type: 'module', name: 'convert' }), {
      size: conversionWorkers(),
      idleTimeoutMs: CONVERT_IDLE_MS,
      budget: decodedBytesBudget(deviceMemoryGb()),
    }),
);

/**
 * Two previews at a time in one worker: enough to keep the grid filling, little enough to leave the pool its cores.
 * Previews come in a burst when files are added; the worker ends a second after it, so what its decodes held is
 * given back before Convert.
 */
const thumbnailPool = lazily(
  () =>
    new WorkerPool<ThumbnailWorkerApi>(() => new Worker(new URL('./thumbnail.worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' }), {
      size: 1,
      tasksPerWorker: 2,
      idleTimeoutMs: 1_000,
    }),
);

/** A zip worker holds the archive while it builds it, so it is ended as soon as it is done. */
const zipPool = lazily(
  () =>
    new WorkerPool<ZipWorkerApi>(() => new Worker(new URL('./zip.worker.ts', import.meta.url), { type: 'module', name: 'zip' }), {
      size: 1,
      idleTimeoutMs: 0,
    }),
);

export interface ConvertOptions extends RunOptions {
  onProgress: (progress: ConversionProgress) => void;
}

/** Converts one file with the given settings; what ConversionQueue is given to do its work. */
export type Converter = (file: Blob, settings: ConversionSettings, options: ConvertOptions) => Promise<ConvertResult>;

/**
 * Decoded bytes a conversion holds at its largest: the source's, or the output's when a resize makes it larger.
 * Unknown (an unreadable header: the worker will refuse the file) counts as nothing.
 */
async function conversionCost(file: Blob, settings: ConversionSettings): Promise<number> {
  const size = (await probeImage(file).catch(() => null))?.size;
  if (!size) return 0;
  const output = planGeometry(size, settings);
  return Math.max(decodedBytes(size), decodedBytes(output));
}

export const convertInWorker: Converter = async (file, settings, { onProgress, ...options }) => {
  const cost = await conversionCost(file, settings);
  const pixelLimit = devicePixelLimit();
  return convertPool().run((remote) => remote.convert({ file, settings, pixelLimit }, Comlink.proxy(onProgress)), { ...options, cost });
};

/** What a conversion with these settings will load: the optimising encoder unless the browser's encodes, the resizer when resizing. */
function warmUpPlan(settings: ConversionSettings): WarmUpPlan {
  const browserEncodes = usesBrowserEncoder(settings, formatInfo(settings.outputFormat));
  const resizes = settings.resizeWidth !== null || settings.resizeHeight !== null || settings.aspectRatio !== 'original';
  return { format: settings.outputFormat, encoder: !browserEncodes, resizer: resizes };
}

/**
 * Starts the conversion workers and compiles the codecs these settings need once the page is idle, so Convert
 * starts converting at once instead of spending its first second on start-up; a codec the settings do not use is
 * not loaded (each costs memory in every worker). Returns a function that cancels the plan.
 */
export function warmUpWhenIdle(settings: ConversionSettings): () => void {
  const plan = warmUpPlan(settings);
  const warm = () => convertPool().warm((remote) => remote.warmUp(plan));
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(warm);
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(warm, 200);
  return () => clearTimeout(handle);
}

/** A small WebP preview of an image, longest edge `maxEdge`; rejects when the browser cannot decode the file. */
export function makeThumbnail(file: Blob, maxEdge: number): Promise<Blob> {
  return thumbnailPool().run((remote) => remote.thumbnail({ file, maxEdge }));
}

/** One zip of the given files (stored, not deflated again), built off the main thread. */
export function zipInWorker(entries: ZipEntry[]): Promise<Blob> {
  return zipPool().run((remote) => remote.zip(entries));
}

/**
 * The message a failure should show: the catalogue's or a size limit's as they are; anything unexpected (a crashed
 * worker too) reads "Conversion failed".
 */
export function conversionErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return isExplainedError(message) ? message : CONVERSION_ERRORS.generic;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
