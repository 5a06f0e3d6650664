import type { Codec } from '../codec.ts';
import { encode } from './encoder.ts';
import { jpegMetadata } from './exif.ts';
import { decodeMozjpeg, encodeJpegli } from './loader.ts';
import { jpeg } from '../../core/formats/jpeg.ts';
import { jpegliOptions } from './options.ts';

export const codec: Codec = {
  format: jpeg,
  decode: decodeMozjpeg,
  decodesUpright: false,
  encode,
  encodeRows: (rows, { quality }) => encodeJpegli(rows, jpegliOptions(quality)),
  warm: (tiny) => encodeJpegli(tiny, jpegliOptions(0.8)),
  metadata: jpegMetadata,
};
