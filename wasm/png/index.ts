import type { Codec } from '../codec.ts';
import { encode } from './encoder.ts';
import { pngMetadata } from './exif.ts';
import { decodePng, optimisePng } from './loader.ts';
import { png } from '../../core/formats/png.ts';

export const codec: Codec = { format: png, decode: decodePng, decodesUpright: false, encode, warm: (tiny) => optimisePng(tiny, {}), metadata: pngMetadata };
