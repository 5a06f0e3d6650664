import { toImageData } from '../../core/raw-image.ts';
import type { Codec } from '../codec.ts';
import { wasmEncode } from '../wasm-encode.ts';
import { encodePng, optimisePng } from './loader.ts';
import { png } from './meta.ts';

/** oxipng when optimising; the plain WASM PNG encoder where a canvas cannot encode. The browser's encoder is the pipeline's. */
export const encode: Codec['encode'] = (image, { optimise }) =>
  wasmEncode(() => (optimise ? optimisePng(toImageData(image), png.optimisedOptions) : encodePng(toImageData(image))));
