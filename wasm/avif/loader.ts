import type { EncodeOptions } from '@jsquash/avif/meta';
import encoderUrl from '@jsquash/avif/codec/enc/avif_enc.wasm?url';
import decoderUrl from '@jsquash/avif/codec/dec/avif_dec.wasm?url';
import { deviceMemoryGb, hasRoomForItsCores } from '../../core/memory';
import { compileWasm, jsquashStarted, once } from '../once';

/**
 * libavif's threaded build where the page is cross-origin isolated (core/isolation.ts; only then can workers share
 * memory) and the device has memory for its cores (core/memory.ts): the package then takes that build and fetches
 * its .wasm itself, the single-threaded one's would not fit its glue. Elsewhere (a phone, Safari, which does not say
 * how much memory it has, a first visit to a host that sends no isolation headers), the single-threaded build.
 */
const threaded = () => globalThis.crossOriginIsolated === true && hasRoomForItsCores(deviceMemoryGb());

type Encode = (image: ImageData, options: Partial<EncodeOptions>) => Promise<ArrayBuffer>;

const encoder = once(async (): Promise<Encode> => {
  if (threaded()) {
    // The package's own init takes the threaded build wherever workers can share memory, and fetches its .wasm.
    const codec = await import('@jsquash/avif/encode');
    await codec.init();
    return codec.default;
  }
  // On an isolated page that should not run threads, the package would still take the threaded build, so the
  // single-threaded glue is started here, as the package's init does, and called as its encode does.
  const [{ default: factory }, { initEmscriptenModule }, { defaultOptions }] = await Promise.all([
    import('@jsquash/avif/codec/enc/avif_enc.js'),
    import('@jsquash/avif/utils'),
    import('@jsquash/avif/meta'),
  ]);
  const module = await initEmscriptenModule(factory, await compileWasm(encoderUrl));
  return async (image, options) => {
    const output = module.encode(new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength), image.width, image.height, { ...defaultOptions, ...options });
    if (!output) throw new Error('AVIF encoding failed');
    return output.buffer as ArrayBuffer;
  };
});

const decoder = jsquashStarted(() => import('@jsquash/avif/decode'), () => compileWasm(decoderUrl));

/**
 * Runs `encode` with the threaded libavif on one thread. jSquash's libavif sets its maxThreads to
 * `navigator.hardwareConcurrency` at each encode (emscripten_num_logical_cores), having started that many threads
 * when it loaded; this worker's navigator says 1 for the length of the encode. Two jobs at once each on every core
 * made a batch slower than one thread each, and starved the page's thread (docs/decisions/encoder-settings.md).
 */
async function onOneThread<T>(encode: () => Promise<T>): Promise<T> {
  const navigatorLike = globalThis.navigator as { hardwareConcurrency?: number };
  Object.defineProperty(navigatorLike, 'hardwareConcurrency', { value: 1, configurable: true });
  try {
    return await encode();
  } finally {
    delete navigatorLike.hardwareConcurrency;
  }
}

/** libavif on every core when the job runs alone (threaded build only), else on one. */
export async function encodeLibavif(image: ImageData, options: Partial<EncodeOptions> & { bitDepth?: 8 }, everyCore: boolean): Promise<ArrayBuffer> {
  const encode = await encoder();
  return everyCore || !threaded() ? encode(image, options) : onOneThread(() => encode(image, options));
}

export async function decodeLibavif(buffer: ArrayBuffer): Promise<ImageData> {
  const image = await (await decoder())(buffer);
  if (!image) throw new Error('AVIF decoding failed');
  return image;
}
