import type { Codec } from '../codec';
import { encode } from './encoder';
import { jpegMetadata } from './exif';
import { decodeMozjpeg, encodeJpegli } from './loader';
import { jpeg, jpegliOptions } from './meta';

export const codec: Codec = {
  format: jpeg,
  decode: decodeMozjpeg,
  decodesUpright: false,
  encode,
  encodeRows: (rows, { quality }) => encodeJpegli(rows, jpegliOptions(quality)),
  warm: (tiny) => encodeJpegli(tiny, jpegliOptions(0.8)),
  metadata: jpegMetadata,
};
