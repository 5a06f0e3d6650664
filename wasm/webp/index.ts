import type { Codec } from '../codec';
import { encode } from './encoder';
import { webpMetadata } from './exif';
import { decodeLibwebp, encodeLibwebp } from './loader';
import { webp } from './meta';

export const codec: Codec = { format: webp, decode: decodeLibwebp, decodesUpright: false, encode, warm: (tiny) => encodeLibwebp(tiny, {}), metadata: webpMetadata };
