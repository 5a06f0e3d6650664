import type { ImageFormat } from '../../formats';
import { avifEncoder } from './avif';
import { jpegEncoder } from './jpeg';
import { pngEncoder } from './png';
import type { Encoder } from './types';
import { webpEncoder } from './webp';

export const ENCODERS: Record<ImageFormat, Encoder> = {
  jpeg: jpegEncoder,
  png: pngEncoder,
  webp: webpEncoder,
  avif: avifEncoder,
};

export type { Encoder, EncodeOptions } from './types';
