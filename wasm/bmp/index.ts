import type { SourceCodec } from '../codec';
import { bmp } from './meta';

/** Decoded by the browser (createImageBitmap), which every engine can: no WASM decoder, and no EXIF in a BMP. */
export const codec: SourceCodec = {
  format: bmp,
  decode: () => Promise.reject(new Error('BMP is decoded by the browser')),
  metadata: { readExif: () => null, hasMetadata: () => false },
};
