import encodePng from '@jsquash/png/encode';
import optimisePng from '@jsquash/oxipng/optimise';
import { encodeWithCanvas, toImageData, wasmEncode } from './canvas';
import type { Encoder } from './types';

export const pngEncoder: Encoder = {
  format: 'png',
  mimeType: 'image/png',
  extension: 'png',
  qualityLevels: 100,
  lossy: false,
  async encode(image, { optimise }) {
    if (optimise) return wasmEncode(() => optimisePng(toImageData(image), { level: 2, interlace: false, optimiseAlpha: true }));
    const native = await encodeWithCanvas(image, 'image/png');
    return native ?? wasmEncode(() => encodePng(toImageData(image)));
  },
};
