import decoderUrl from '@jsquash/jxl/codec/dec/jxl_dec.wasm?url';
import type { RawImage } from '../../workers/pipeline/raw-image';
import { compileWasm, jsquashStarted } from '../once';

/** libjxl's decoder (jSquash's build), fetched and compiled the first time a JPEG XL is decoded here, and precached. */
const decoder = jsquashStarted(() => import('@jsquash/jxl/decode'), () => compileWasm(decoderUrl));

export async function decodeJxl(buffer: ArrayBuffer): Promise<RawImage> {
  return (await decoder())(buffer);
}
