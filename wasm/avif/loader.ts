import type { EncodeOptions } from '@jsquash/avif/meta';
import encoderUrl from '@jsquash/avif/codec/enc/avif_enc.wasm?url';
import decoderUrl from '@jsquash/avif/codec/dec/avif_dec.wasm?url';
import { compileWasm, emscriptenEncode, jsquashStarted, once } from '../once';
import { onTheCoresItMayUse, threadedBuildFits } from '../threads';

type Encode = (image: ImageData, options: Partial<EncodeOptions>) => Promise<ArrayBuffer>;

const encoder = once(async (): Promise<Encode> => {
  // The threaded build where it fits: the package's own init takes it wherever workers can share memory, and fetches
  // its .wasm itself (the single-threaded one's would not fit its glue).
  if (threadedBuildFits()) {
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
  return emscriptenEncode(module, defaultOptions, 'AVIF');
});

const decoder = jsquashStarted(() => import('@jsquash/avif/decode'), () => compileWasm(decoderUrl));

/** libavif on every core when the job runs alone (threaded build only), else on one. */
export async function encodeLibavif(image: ImageData, options: Partial<EncodeOptions> & { bitDepth?: 8 }, everyCore: boolean): Promise<ArrayBuffer> {
  const encode = await encoder();
  return onTheCoresItMayUse(() => encode(image, options), everyCore);
}

export async function decodeLibavif(buffer: ArrayBuffer): Promise<ImageData> {
  const image = await (await decoder())(buffer);
  if (!image) throw new Error('AVIF decoding failed');
  return image;
}
