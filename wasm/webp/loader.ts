import type { EncodeOptions } from '@jsquash/webp/meta';
import encoderUrl from '@jsquash/webp/codec/enc/webp_enc.wasm?url';
import simdEncoderUrl from '@jsquash/webp/codec/enc/webp_enc_simd.wasm?url';
import decoderUrl from '@jsquash/webp/codec/dec/webp_dec.wasm?url';
import { simd } from 'wasm-feature-detect';
import { compileWasm, jsquashStarted } from '../once.ts';

/** The SIMD build where the browser runs WASM SIMD (all current ones); the package picks its glue by the same test. */
const encoder = jsquashStarted(() => import('@jsquash/webp/encode'), async () => compileWasm((await simd()) ? simdEncoderUrl : encoderUrl));

const decoder = jsquashStarted(() => import('@jsquash/webp/decode'), () => compileWasm(decoderUrl));

export async function encodeLibwebp(image: ImageData, options: Partial<EncodeOptions>): Promise<ArrayBuffer> {
  return (await encoder())(image, options);
}

export async function decodeLibwebp(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
