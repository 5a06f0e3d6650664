import { encodeLibwebp } from '../../../wasm';
import { FORMATS } from '../../formats';
import { encodeNativeOrWasm, toImageData } from './canvas';
import type { Encoder } from './types';

const { mimeType, optimisedOptions } = FORMATS.webp;

export const webpEncoder: Encoder = {
  format: 'webp',
  encode(image, { quality, optimise }) {
    return encodeNativeOrWasm(image, mimeType, { quality, optimise }, () =>
      encodeLibwebp(toImageData(image), { ...optimisedOptions, quality: quality * 100 }),
    );
  },
};
