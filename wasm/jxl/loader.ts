import type { EncodeOptions } from '@jsquash/jxl/meta';
import encoderUrl from '@jsquash/jxl/codec/enc/jxl_enc.wasm?url';
import decoderUrl from '@jsquash/jxl/codec/dec/jxl_dec.wasm?url';
import type { RawImage } from '../../core/raw-image.ts';
import { compileWasm, emscriptenEncode, jsquashStarted, once } from '../once.ts';
import { onTheCoresItMayUse, threadedBuildFits } from '../threads.ts';

/** libjxl's decoder (jSquash's build), fetched and compiled the first time a JPEG XL is decoded here, and precached. */
const decoder = jsquashStarted(() => import('@jsquash/jxl/decode'), () => compileWasm(decoderUrl));

export async function decodeJxl(buffer: ArrayBuffer): Promise<RawImage> {
  return (await decoder())(buffer);
}

type Encode = (image: ImageData, options: Partial<EncodeOptions>) => Promise<ArrayBuffer>;

/**
 * libjxl's encoder, fetched and compiled the first time a JPEG XL is written here: the threaded SIMD build where it
 * fits (wasm/threads.ts), whose glue fetches its .wasm and starts its threads' script itself; elsewhere the
 * single-threaded build (jSquash ships it without SIMD). Started here as the package's init would, without its
 * `encode.js`, which also imports a threaded build without SIMD that no engine able to share memory needs.
 */
const encoder = once(async (): Promise<Encode> => {
  const [{ initEmscriptenModule }, { defaultOptions }] = await Promise.all([import('@jsquash/jxl/utils'), import('@jsquash/jxl/meta')]);
  const module = threadedBuildFits()
    ? await initEmscriptenModule((await import('@jsquash/jxl/codec/enc/jxl_enc_mt_simd.js')).default)
    : await initEmscriptenModule((await import('@jsquash/jxl/codec/enc/jxl_enc.js')).default, await compileWasm(encoderUrl));
  return emscriptenEncode(module, defaultOptions, 'JPEG XL');
});

/** libjxl on every core when the job runs alone (threaded build only), else on one. */
export async function encodeLibjxl(image: ImageData, options: Partial<EncodeOptions>, everyCore: boolean): Promise<ArrayBuffer> {
  const encode = await encoder();
  return onTheCoresItMayUse(() => encode(image, options), everyCore);
}
