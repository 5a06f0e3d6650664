import type { EncodeOptions } from '@jsquash/jpeg/meta';
import encoderUrl from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?url';
import decoderUrl from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?url';
import { compileWasm, once } from '../once';

const encoder = once(async () => {
  const codec = await import('@jsquash/jpeg/encode');
  await codec.init(await compileWasm(encoderUrl));
  return codec.default;
});

const decoder = once(async () => {
  const codec = await import('@jsquash/jpeg/decode');
  await codec.init(await compileWasm(decoderUrl));
  return codec.default;
});

export async function encodeMozjpeg(image: ImageData, options: Partial<EncodeOptions>): Promise<ArrayBuffer> {
  return (await encoder())(image, options);
}

export async function decodeMozjpeg(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
