import type { Codec } from '../codec';
import { encode } from './encoder';
import { pngMetadata } from './exif';
import { decodePng, optimisePng } from './loader';
import { png } from './meta';

export const codec: Codec = { format: png, decode: decodePng, encode, warm: (tiny) => optimisePng(tiny, {}), metadata: pngMetadata };
