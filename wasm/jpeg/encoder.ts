import type { Codec } from '../codec.ts';
import { wasmEncode } from '../wasm-encode.ts';
import { encodeJpegli } from './loader.ts';
import { jpegliOptions } from './options.ts';

/**
 * jpegli with the registry's options and quality map. The browser's encoder, where the plan chose it, is the pipeline's.
 * jpegli reads the pixels as they are, with no ImageData made on them: the pipeline can then free them as soon as the
 * encode is over (releasePixels).
 */
export const encode: Codec['encode'] = (image, { quality }) => wasmEncode(() => encodeJpegli(image, jpegliOptions(quality)));
