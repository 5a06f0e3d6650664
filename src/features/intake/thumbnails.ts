import * as Comlink from 'comlink';
import type { ThumbnailWorkerApi } from '../../../workers/thumbnail.worker';

/** Two previews at a time: enough to keep the grid filling, little enough to leave the pool its cores. */
const CONCURRENCY = 2;
const MAX_EDGE = 240;

let worker: Comlink.Remote<ThumbnailWorkerApi> | null = null;
let running = 0;
const waiting: Array<() => void> = [];

function remote(): Comlink.Remote<ThumbnailWorkerApi> {
  worker ??= Comlink.wrap<ThumbnailWorkerApi>(
    new Worker(new URL('../../../workers/thumbnail.worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' }),
  );
  return worker;
}

async function slot(): Promise<void> {
  if (running < CONCURRENCY) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** An object URL of a small preview of the image; the caller revokes it. Rejects when the browser cannot decode it. */
export async function createThumbnailUrl(file: Blob): Promise<string> {
  await slot();
  try {
    const blob = await remote().thumbnail({ file, maxEdge: MAX_EDGE });
    return URL.createObjectURL(blob);
  } finally {
    release();
  }
}
