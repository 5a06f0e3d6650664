import decoderUrl from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?url';
import jpegliUrl from '../jpegli/jpegli.wasm?url';
import { jpegliEncoder, type JpegliOptions } from '../jpegli/jpegli.ts';
import { compileWasm, jsquashStarted, once } from '../once.ts';
import type { PixelRows, RawImage } from '../../core/raw-image.ts';

const encoder = once(async () => jpegliEncoder(await compileWasm(jpegliUrl)));

const decoder = jsquashStarted(() => import('@jsquash/jpeg/decode'), () => compileWasm(decoderUrl));

export async function encodeJpegli(image: RawImage | PixelRows, options: JpegliOptions): Promise<ArrayBuffer> {
  return (await encoder())(image, options);
}

export async function decodeMozjpeg(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
