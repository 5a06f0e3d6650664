import decoderUrl from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?url';
import jpegliUrl from '../jpegli/jpegli.wasm?url';
import { jpegliEncoder, type JpegliOptions } from '../jpegli/jpegli';
import { compileWasm, once } from '../once';

const encoder = once(async () => jpegliEncoder(await compileWasm(jpegliUrl)));

const decoder = once(async () => {
  const codec = await import('@jsquash/jpeg/decode');
  await codec.init(await compileWasm(decoderUrl));
  return codec.default;
});

export async function encodeJpegli(image: ImageData, options: JpegliOptions): Promise<ArrayBuffer> {
  return (await encoder())(image, options);
}

export async function decodeMozjpeg(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
