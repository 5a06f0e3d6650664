import * as Comlink from 'comlink';
import { CONVERSION_ERRORS, type ConversionProgress, type ConversionSettings, type ConvertResult, type ImageFormat, type ZipEntry } from './contract';
import type { ConvertWorkerApi } from './convert.worker';
import { WorkerPool, type RunOptions } from './pool';
import type { ThumbnailWorkerApi } from './thumbnail.worker';
import type { ZipWorkerApi } from './zip.worker';

/**
 * The UI thread's one way into workers/: every worker it uses (conversions, previews, zips) is started, warmed,
 * aborted and ended here, and worker failures come back as the spec's messages. Components never spawn a worker.
 */

/** The header probe reads a few bytes of a file (at most 4 KB), cheap enough for the UI thread at intake. */
export { sniffImageFormat } from './pipeline/probe';

/** The spec's batch size: three conversions at once, each in its own worker. */
export const CONVERSION_SLOTS = 3;

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
      size: CONVERSION_SLOTS,
      idleTimeoutMs: CONVERT_IDLE_MS,
    }),
);

/** Two previews at a time in one worker: enough to keep the grid filling, little enough to leave the pool its cores. */
const thumbnailPool = lazily(
  () =>
    new WorkerPool<ThumbnailWorkerApi>(() => new Worker(new URL('./thumbnail.worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' }), {
      size: 1,
      tasksPerWorker: 2,
      idleTimeoutMs: 10_000,
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

export const convertInWorker: Converter = (file, settings, { onProgress, ...options }) =>
  convertPool().run((remote) => remote.convert({ file, settings }, Comlink.proxy(onProgress)), options);

/**
 * Starts the conversion workers and compiles `format`'s codecs once the page is idle, so Convert starts converting
 * at once instead of spending its first second on start-up. Returns a function that cancels the plan.
 */
export function warmUpWhenIdle(format: ImageFormat): () => void {
  const warm = () => convertPool().warm((remote) => remote.warmUp(format));
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

const CATALOGUE = new Set<string>(Object.values(CONVERSION_ERRORS));

/** The catalogue message a failure should show; anything unexpected (a crashed worker too) reads "Conversion failed". */
export function conversionErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CATALOGUE.has(message) ? message : CONVERSION_ERRORS.generic;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
