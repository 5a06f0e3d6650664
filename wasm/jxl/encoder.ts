import { wasmEncode } from '../wasm-encode.ts';
import { toImageData } from '../../core/raw-image.ts';
import type { Codec } from '../codec.ts';
import { encodeLibjxl } from './loader.ts';
import { libjxlOptions } from './options.ts';

/** Always libjxl: no browser encodes JPEG XL from a canvas. On every core when the job runs alone (wasm/threads.ts). */
export const encode: Codec['encode'] = (image, { quality, thorough = true, alone = false }) =>
  wasmEncode(() => encodeLibjxl(toImageData(image), libjxlOptions(quality, { thorough }), alone));
