import decoderUrl from './jxl_dec.wasm?url';
import encoderUrl from './jxl_enc.wasm?url';
import type { RawImage } from '../../core/raw-image.ts';
import { compileWasm, once } from '../once.ts';
import { threadedBuildFits } from '../threads.ts';
import { decodeWithLibjxl, encodeWithLibjxl, startDecoder, startSingleThreaded, type LibjxlModule, type LibjxlOptions } from './libjxl.ts';

/** This app's libjxl decoder (wasm/jxl/build.sh), fetched and compiled the first time a JPEG XL is decoded here, and precached. */
const decoder = once(() => startDecoder(compileWasm(decoderUrl)));

export async function decodeJxl(buffer: ArrayBuffer): Promise<RawImage> {
  return decodeWithLibjxl(await decoder(), buffer);
}

/**
 * This app's libjxl encoder (wasm/jxl/build.sh), fetched and compiled the first time a JPEG XL is written here: the
 * threaded build where it fits (wasm/threads.ts), whose glue fetches its .wasm and starts its threads itself; elsewhere
 * the single-threaded one, compiled from the hashed URL the build gave it (and the service worker precached).
 */
const encoder = once(async (): Promise<{ module: LibjxlModule; threaded: boolean }> => {
  if (threadedBuildFits()) {
    const factory = (await import('./jxl_enc_mt.js')).default as (options: object) => Promise<LibjxlModule>;
    return { module: await factory({}), threaded: true };
  }
  return { module: await startSingleThreaded(compileWasm(encoderUrl)), threaded: false };
});

/** The threads the threaded build started with (at most 8, as wasm/jxl/build.sh starts them). */
const STARTED_THREADS = 8;

/**
 * libjxl on every core when the job runs alone (the threaded build: two jobs at once each on every core made a batch
 * slower than one thread each, and starved the page's thread, docs/decisions/encoder-settings.md), else on one.
 */
export async function encodeLibjxl(image: ImageData, options: Omit<LibjxlOptions, 'threads'>, everyCore: boolean): Promise<ArrayBuffer> {
  const { module, threaded } = await encoder();
  const threads = threaded && everyCore ? Math.min(STARTED_THREADS, navigator.hardwareConcurrency || 1) : 1;
  return encodeWithLibjxl(module, image, { ...options, threads }).buffer as ArrayBuffer;
}
