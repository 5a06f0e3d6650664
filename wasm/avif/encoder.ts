import { wasmEncode } from '../wasm-encode.ts';
import { toImageData } from '../../core/raw-image.ts';
import type { Codec } from '../codec.ts';
import { encodeLibavif } from './loader.ts';
import { avif } from './meta.ts';

/** Always libavif: no browser encodes AVIF from a canvas. On every core when the job runs alone (loader.ts). */
export const encode: Codec['encode'] = (image, { quality, alone = false }) =>
  wasmEncode(() => encodeLibavif(toImageData(image), { ...avif.optimisedOptions, quality: Math.round(quality * 100) }, alone));
