import type { SourceCodec } from '../codec';
import { gif } from './meta';

/** Decoded by the browser (createImageBitmap), which every engine can: no WASM decoder, and no EXIF in a GIF. */
export const codec: SourceCodec = {
  format: gif,
  decode: () => Promise.reject(new Error('GIF is decoded by the browser')),
  metadata: { readExif: () => null, hasMetadata: () => false },
};
