import type { EncodeOptions } from '@jsquash/jpeg/meta';
import encoderUrl from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?url';
import decoderUrl from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?url';
import { once, wasmAt } from './once';

const encoder = once(async () => {
  const codec = await import('@jsquash/jpeg/encode');
  await codec.init(wasmAt(encoderUrl));
  return codec.default;
});

const decoder = once(async () => {
  const codec = await import('@jsquash/jpeg/decode');
  await codec.init(wasmAt(decoderUrl));
  return codec.default;
});

export async function encodeMozjpeg(image: ImageData, options: Partial<EncodeOptions>): Promise<ArrayBuffer> {
  return (await encoder())(image, options);
}

export async function decodeMozjpeg(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
