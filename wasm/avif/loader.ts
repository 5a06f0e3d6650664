import type { EncodeOptions } from '@jsquash/avif/meta';
import encoderUrl from '@jsquash/avif/codec/enc/avif_enc.wasm?url';
import decoderUrl from '@jsquash/avif/codec/dec/avif_dec.wasm?url';
import { compileWasm, once } from '../once';

/**
 * The single-threaded libavif. The package takes its threaded build when the page is cross-origin isolated (only then
 * can workers share memory); this app is not, and the other build's .wasm would not fit that glue, so there the
 * package is left to find its own.
 */
const encoder = once(async () => {
  const codec = await import('@jsquash/avif/encode');
  await (globalThis.crossOriginIsolated ? codec.init() : codec.init(await compileWasm(encoderUrl)));
  return codec.default;
});

const decoder = once(async () => {
  const codec = await import('@jsquash/avif/decode');
  await codec.init(await compileWasm(decoderUrl));
  return codec.default;
});

export async function encodeLibavif(image: ImageData, options: Partial<EncodeOptions> & { bitDepth?: 8 }): Promise<ArrayBuffer> {
  return (await encoder())(image, options);
}

export async function decodeLibavif(buffer: ArrayBuffer): Promise<ImageData> {
  const image = await (await decoder())(buffer);
  if (!image) throw new Error('AVIF decoding failed');
  return image;
}
