import encodeMozjpeg from '@jsquash/jpeg/encode';
import { encodeWithCanvas, toImageData, wasmEncode } from './canvas';
import type { Encoder } from './types';

const mozjpeg = (image: Parameters<Encoder['encode']>[0], quality: number) =>
  wasmEncode(() => encodeMozjpeg(toImageData(image), { quality: Math.round(quality * 100) }));

export const jpegEncoder: Encoder = {
  format: 'jpeg',
  mimeType: 'image/jpeg',
  extension: 'jpg',
  qualityLevels: 100,
  lossy: true,
  async encode(image, { quality, optimise }) {
    if (!optimise) {
      const native = await encodeWithCanvas(image, 'image/jpeg', quality);
      if (native) return native;
    }
    return mozjpeg(image, quality);
  },
};
