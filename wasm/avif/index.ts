import type { Codec } from '../codec.ts';
import { encode } from './encoder.ts';
import { avifMetadata } from './exif.ts';
import { decodeLibavif, encodeLibavif } from './loader.ts';
import { avif } from '../../core/formats/avif.ts';

export const codec: Codec = { format: avif, decode: decodeLibavif, decodesUpright: false, encode, warm: (tiny) => encodeLibavif(tiny, {}, false), metadata: avifMetadata };
