import { toImageData } from '../../core/raw-image.ts';
import type { Codec } from '../codec.ts';
import { wasmEncode } from '../wasm-encode.ts';
import { encodeJpegli } from './loader.ts';
import { jpegliOptions } from './options.ts';

/** jpegli with the registry's options and quality map. The browser's encoder, where the plan chose it, is the pipeline's. */
export const encode: Codec['encode'] = (image, { quality }) => wasmEncode(() => encodeJpegli(toImageData(image), jpegliOptions(quality)));
