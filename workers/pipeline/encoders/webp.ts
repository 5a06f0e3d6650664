import encodeLibwebp from '@jsquash/webp/encode';
import { encodeNativeOrWasm, toImageData } from './canvas';
import type { Encoder } from './types';

/** libwebp takes a float quality, which steps its per-segment quantizers more finely than whole percents. */
export const webpEncoder: Encoder = {
  format: 'webp',
  mimeType: 'image/webp',
  extension: 'webp',
  qualityLevels: 1000,
  lossy: true,
  encode(image, { quality, optimise }) {
    return encodeNativeOrWasm(image, 'image/webp', { quality, optimise }, () => encodeLibwebp(toImageData(image), { quality: quality * 100 }));
  },
};
