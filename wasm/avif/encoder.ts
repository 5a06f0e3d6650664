import { toImageData, wasmEncode } from '../../workers/pipeline/canvas-encoder';
import type { Codec } from '../codec';
import { encodeLibavif } from './loader';
import { avif } from './meta';

/** Always libavif: no browser encodes AVIF from a canvas. On every core when the job runs alone (loader.ts). */
export const encode: Codec['encode'] = (image, { quality, alone = false }) =>
  wasmEncode(() => encodeLibavif(toImageData(image), { ...avif.optimisedOptions, quality: Math.round(quality * 100) }, alone));
