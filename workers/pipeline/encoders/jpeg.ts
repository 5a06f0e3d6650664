import { encodeMozjpeg } from '../../../wasm';
import { FORMATS } from '../../formats';
import { encodeNativeOrWasm, toImageData } from './canvas';
import type { Encoder } from './types';

const { mimeType, optimisedOptions } = FORMATS.jpeg;

export const jpegEncoder: Encoder = {
  format: 'jpeg',
  encode(image, { quality, optimise }) {
    return encodeNativeOrWasm(image, mimeType, { quality, optimise }, () =>
      encodeMozjpeg(toImageData(image), { ...optimisedOptions, quality: Math.round(quality * 100) }),
    );
  },
};
