import * as Comlink from 'comlink';
import { CONVERSION_ERRORS, type ConversionProgress, type ConversionSettings, type ConvertResult } from '../../../workers/contract';
import type { ConvertWorkerApi } from '../../../workers/convert.worker';
import { WorkerPool, type RunOptions } from '../../../workers/pool';
import type { ZipEntry, ZipWorkerApi } from '../../../workers/zip.worker';

/** The spec's batch size: three conversions at once, each in its own worker. */
export const POOL_SIZE = 3;

let convertPool: WorkerPool<ConvertWorkerApi> | null = null;

function pool(): WorkerPool<ConvertWorkerApi> {
  convertPool ??= new WorkerPool<ConvertWorkerApi>(
    () => new Worker(new URL('../../../workers/convert.worker.ts', import.meta.url), { type: 'module', name: 'convert' }),
    POOL_SIZE,
  );
  return convertPool;
}

/** Starts the workers and compiles the codecs for `format` while the visitor is still choosing settings. */
export function warmUpPool(format: ConversionSettings['outputFormat']): void {
  pool().warm((remote) => remote.warmUp(format));
}

export interface ConvertCallbacks extends RunOptions {
  onProgress: (progress: ConversionProgress) => void;
}

export function convertInWorker(file: File, settings: ConversionSettings, { onProgress, ...options }: ConvertCallbacks): Promise<ConvertResult> {
  return pool().run((remote) => remote.convert({ file, name: file.name, settings }, Comlink.proxy(onProgress)), options);
}

const CATALOGUE = new Set<string>(Object.values(CONVERSION_ERRORS));

/** The catalogue message a failure should show; anything unexpected reads "Conversion failed". */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CATALOGUE.has(message) ? message : CONVERSION_ERRORS.generic;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** One zip of the given files, built off the main thread. */
export async function zipInWorker(entries: ZipEntry[]): Promise<Blob> {
  const worker = new Worker(new URL('../../../workers/zip.worker.ts', import.meta.url), { type: 'module', name: 'zip' });
  try {
    return await Comlink.wrap<ZipWorkerApi>(worker).zip(entries);
  } finally {
    worker.terminate();
  }
}
