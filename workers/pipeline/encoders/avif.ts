import { encodeLibavif } from '../../../wasm';
import { FORMATS } from '../../formats';
import { toImageData, wasmEncode } from './canvas';
import type { Encoder } from './types';

const { optimisedOptions } = FORMATS.avif;

/** Always libavif: no browser encodes AVIF from a canvas. */
export const avifEncoder: Encoder = {
  format: 'avif',
  encode(image, { quality }) {
    return wasmEncode(() => encodeLibavif(toImageData(image), { ...optimisedOptions, quality: Math.round(quality * 100) }));
  },
};
