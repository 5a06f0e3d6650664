import type { Codec } from '../codec';
import { encode } from './encoder';
import { pngMetadata } from './exif';
import { decodePng, optimisePng } from './loader';
import { png } from './meta';

export const codec: Codec = { format: png, decode: decodePng, decodesUpright: false, encode, warm: (tiny) => optimisePng(tiny, {}), metadata: pngMetadata };
