import type { Codec } from '../codec';
import { encode } from './encoder';
import { jpegMetadata } from './exif';
import { decodeMozjpeg, encodeMozjpeg } from './loader';
import { jpeg } from './meta';

export const codec: Codec = { format: jpeg, decode: decodeMozjpeg, encode, warm: (tiny) => encodeMozjpeg(tiny, {}), metadata: jpegMetadata };
