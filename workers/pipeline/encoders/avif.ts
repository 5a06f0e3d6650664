import encodeAvif from '@jsquash/avif/encode';
import { toImageData, wasmEncode } from './canvas';
import type { Encoder } from './types';

/** No browser encodes AVIF from a canvas, so this is always libavif (single-threaded without cross-origin isolation). */
export const avifEncoder: Encoder = {
  format: 'avif',
  mimeType: 'image/avif',
  extension: 'avif',
  qualityLevels: 100,
  lossy: true,
  encode(image, { quality }) {
    return wasmEncode(() => encodeAvif(toImageData(image), { quality: Math.round(quality * 100), speed: 6 }));
  },
};
