import encodeLibwebp from '@jsquash/webp/encode';
import { encodeWithCanvas, toImageData, wasmEncode } from './canvas';
import type { Encoder } from './types';

/** libwebp takes a float quality, which steps its per-segment quantizers more finely than whole percents. */
export const webpEncoder: Encoder = {
  format: 'webp',
  mimeType: 'image/webp',
  extension: 'webp',
  qualityLevels: 1000,
  lossy: true,
  async encode(image, { quality, optimise }) {
    if (!optimise) {
      const native = await encodeWithCanvas(image, 'image/webp', quality);
      if (native) return native;
    }
    return wasmEncode(() => encodeLibwebp(toImageData(image), { quality: quality * 100 }));
  },
};
