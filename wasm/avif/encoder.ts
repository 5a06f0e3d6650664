import { wasmEncode } from '../wasm-encode.ts';
import { toImageData } from '../../core/raw-image.ts';
import type { EncodeOptions } from '@jsquash/avif/meta';
import { knownOptions, type Codec } from '../codec.ts';
import { encodeLibavif } from './loader.ts';
import { avif } from '../../core/formats/avif.ts';

/** The registry's options, held to libavif's own. */
const OPTIMISED = knownOptions<EncodeOptions>()(avif.optimisedOptions);

/** Always libavif: no browser encodes AVIF from a canvas. On every core when the job runs alone (loader.ts). */
export const encode: Codec['encode'] = (image, { quality, alone = false }) =>
  wasmEncode(() => encodeLibavif(toImageData(image), { ...OPTIMISED, quality: Math.round(quality * 100) }, alone));
