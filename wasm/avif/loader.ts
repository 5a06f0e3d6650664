import type { EncodeOptions } from '@jsquash/avif/meta';
import encoderUrl from '@jsquash/avif/codec/enc/avif_enc.wasm?url';
import decoderUrl from '@jsquash/avif/codec/dec/avif_dec.wasm?url';
import { compileWasm, emscriptenEncode, jsquashStarted, once } from '../once.ts';
import { threadedBuildFits } from '../threads.ts';

type Encode = (image: ImageData, options: Partial<EncodeOptions>) => Promise<ArrayBuffer>;

/** jSquash's threaded build, by the package's own init (which fetches its .wasm itself: the other build's would not fit its glue). */
const threadedEncoder = once(async (): Promise<Encode> => {
  const codec = await import('@jsquash/avif/encode');
  await codec.init();
  return codec.default;
});

/**
 * The single-threaded build. On an isolated page the package's init would take the threaded build, so its glue is
 * started here, as the package's init does, and called as its encode does.
 */
const singleThreadedEncoder = once(async (): Promise<Encode> => {
  const [{ default: factory }, { initEmscriptenModule }, { defaultOptions }] = await Promise.all([
    import('@jsquash/avif/codec/enc/avif_enc.js'),
    import('@jsquash/avif/utils'),
    import('@jsquash/avif/meta'),
  ]);
  const module = await initEmscriptenModule(factory, await compileWasm(encoderUrl));
  return emscriptenEncode(module, defaultOptions, 'AVIF');
});

const decoder = jsquashStarted(() => import('@jsquash/avif/decode'), () => compileWasm(decoderUrl));

/**
 * libavif on every core when the job runs alone and the threaded build fits, else on one thread, by the
 * single-threaded build: the threaded build held to one thread made the 6 × 2 MP batch 8% slower than the
 * single-threaded build (docs/decisions/encoder-settings.md).
 */
export async function encodeLibavif(image: ImageData, options: Partial<EncodeOptions> & { bitDepth?: 8 }, everyCore: boolean): Promise<ArrayBuffer> {
  const encode = await (everyCore && threadedBuildFits() ? threadedEncoder() : singleThreadedEncoder());
  return encode(image, options);
}

export async function decodeLibavif(buffer: ArrayBuffer): Promise<ImageData> {
  const image = await (await decoder())(buffer);
  if (!image) throw new Error('AVIF decoding failed');
  return image;
}
