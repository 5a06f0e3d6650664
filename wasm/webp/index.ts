import type { Codec } from '../codec.ts';
import { encode } from './encoder.ts';
import { webpMetadata } from './exif.ts';
import { decodeLibwebp, encodeLibwebp } from './loader.ts';
import { webp } from '../../core/formats/webp.ts';

export const codec: Codec = { format: webp, decode: decodeLibwebp, decodesUpright: false, encode, warm: (tiny) => encodeLibwebp(tiny, {}), metadata: webpMetadata };
