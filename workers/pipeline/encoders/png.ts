import encodePng from '@jsquash/png/encode';
import optimisePng from '@jsquash/oxipng/optimise';
import { encodeNativeOrWasm, toImageData } from './canvas';
import type { Encoder } from './types';

export const pngEncoder: Encoder = {
  format: 'png',
  mimeType: 'image/png',
  extension: 'png',
  qualityLevels: 100,
  lossy: false,
  encode(image, { optimise }) {
    return encodeNativeOrWasm(image, 'image/png', { optimise }, () =>
      optimise ? optimisePng(toImageData(image), { level: 2, interlace: false, optimiseAlpha: true }) : encodePng(toImageData(image)),
    );
  },
};
