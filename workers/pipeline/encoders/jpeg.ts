import encodeMozjpeg from '@jsquash/jpeg/encode';
import { encodeNativeOrWasm, toImageData } from './canvas';
import type { Encoder } from './types';

export const jpegEncoder: Encoder = {
  format: 'jpeg',
  mimeType: 'image/jpeg',
  extension: 'jpg',
  qualityLevels: 100,
  lossy: true,
  encode(image, { quality, optimise }) {
    return encodeNativeOrWasm(image, 'image/jpeg', { quality, optimise }, () =>
      encodeMozjpeg(toImageData(image), { quality: Math.round(quality * 100) }),
    );
  },
};
