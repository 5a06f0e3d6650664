import { encodePng, optimisePng } from '../../../wasm';
import { FORMATS } from '../../formats';
import { encodeNativeOrWasm, toImageData } from './canvas';
import type { Encoder } from './types';

const { mimeType, optimisedOptions } = FORMATS.png;

export const pngEncoder: Encoder = {
  format: 'png',
  encode(image, { optimise }) {
    return encodeNativeOrWasm(image, mimeType, { optimise }, () =>
      optimise ? optimisePng(toImageData(image), optimisedOptions) : encodePng(toImageData(image)),
    );
  },
};
