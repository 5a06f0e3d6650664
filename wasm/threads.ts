import { deviceMemoryGb, hasRoomForItsCores } from '../core/memory.ts';

/**
 * Whether a codec's threaded build should load: the page is cross-origin isolated (core/isolation.ts; only then can
 * workers share memory) and the device has memory for its cores (core/memory.ts). Elsewhere (a phone, Safari, which
 * does not say how much memory it has, a first visit to a host that sends no isolation headers), the
 * single-threaded build. libavif's and libjxl's loaders ask it.
 */
export const threadedBuildFits = () => globalThis.crossOriginIsolated === true && hasRoomForItsCores(deviceMemoryGb());

/**
 * Runs `encode` with a threaded build on one thread. jSquash's threaded libjxl sizes its thread pool from
 * `navigator.hardwareConcurrency` at each encode (emscripten_num_logical_cores); this worker's navigator says 1 for
 * the length of the encode. Two jobs at once each on every core made a batch slower than one thread each, and
 * starved the page's thread (docs/decisions/encoder-settings.md). libjxl's loader uses it: its single-threaded build
 * has no SIMD. libavif's takes its single-threaded build instead, which is faster than the threaded one held to one
 * thread.
 */
export async function onOneThread<T>(encode: () => Promise<T>): Promise<T> {
  const navigatorLike = globalThis.navigator as { hardwareConcurrency?: number };
  Object.defineProperty(navigatorLike, 'hardwareConcurrency', { value: 1, configurable: true });
  try {
    return await encode();
  } finally {
    delete navigatorLike.hardwareConcurrency;
  }
}

/** A threaded build's encode on every core when the job runs alone, else on one; the single-threaded build as it is. */
export function onTheCoresItMayUse<T>(encode: () => Promise<T>, everyCore: boolean): Promise<T> {
  return everyCore || !threadedBuildFits() ? encode() : onOneThread(encode);
}
