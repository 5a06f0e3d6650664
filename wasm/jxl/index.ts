import type { Codec } from '../codec';
import { encode } from './encoder';
import { jxlMetadata } from './exif';
import { decodeJxl, encodeLibjxl } from './loader';
import { jxl } from './meta';

/**
 * Decoded by the browser where it can (Safari), else by libjxl in WebAssembly, which applies the codestream's
 * orientation; always written by libjxl.
 */
export const codec: Codec = {
  format: jxl,
  decode: decodeJxl,
  decodesUpright: true,
  encode,
  warm: (tiny) => encodeLibjxl(tiny, jxl.optimisedOptions, false),
  metadata: jxlMetadata,
};
