import type { Codec } from '../codec';
import { encode } from './encoder';
import { avifMetadata } from './exif';
import { decodeLibavif, encodeLibavif } from './loader';
import { avif } from './meta';

export const codec: Codec = { format: avif, decode: decodeLibavif, decodesUpright: false, encode, warm: (tiny) => encodeLibavif(tiny, {}, false), metadata: avifMetadata };
