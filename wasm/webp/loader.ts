import type { EncodeOptions } from '@jsquash/webp/meta';
import encoderUrl from '@jsquash/webp/codec/enc/webp_enc.wasm?url';
import simdEncoderUrl from '@jsquash/webp/codec/enc/webp_enc_simd.wasm?url';
import decoderUrl from '@jsquash/webp/codec/dec/webp_dec.wasm?url';
import { simd } from 'wasm-feature-detect';
import { compileWasm, once } from '../once';

/** The SIMD build where the browser runs WASM SIMD (all current ones); the package picks its glue by the same test. */
const encoder = once(async () => {
  const [codec, hasSimd] = await Promise.all([import('@jsquash/webp/encode'), simd()]);
  await codec.init(await compileWasm(hasSimd ? simdEncoderUrl : encoderUrl));
  return codec.default;
});

const decoder = once(async () => {
  const codec = await import('@jsquash/webp/decode');
  await codec.init(await compileWasm(decoderUrl));
  return codec.default;
});

export async function encodeLibwebp(image: ImageData, options: Partial<EncodeOptions>): Promise<ArrayBuffer> {
  return (await encoder())(image, options);
}

export async function decodeLibwebp(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
