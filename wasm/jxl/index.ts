import type { Codec } from '../codec.ts';
import { encode } from './encoder.ts';
import { jxlMetadata } from './exif.ts';
import { decodeJxl, encodeLibjxl } from './loader.ts';
import { libjxlOptions } from './options.ts';
import { jxl } from '../../core/formats/jxl.ts';

/**
 * Decoded by the browser where it can (Safari), else by libjxl in WebAssembly, which applies the codestream's
 * orientation; always written by libjxl.
 */
export const codec: Codec = {
  format: jxl,
  decode: decodeJxl,
  decodesUpright: true,
  encode,
  warm: (tiny) => encodeLibjxl(tiny, libjxlOptions(0.8, { thorough: true }), false),
  metadata: jxlMetadata,
};
