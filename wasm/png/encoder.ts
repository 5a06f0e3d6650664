import { toImageData } from '../../core/raw-image.ts';
import type { OptimiseOptions } from '@jsquash/oxipng/meta';
import { knownOptions, type Codec } from '../codec.ts';
import { wasmEncode } from '../wasm-encode.ts';
import { encodePng, optimisePng } from './loader.ts';
import { png } from '../../core/formats/png.ts';

/** The registry's options, held to oxipng's own. */
const OPTIMISED = knownOptions<OptimiseOptions>()(png.optimisedOptions);

/** oxipng when optimising; the plain WASM PNG encoder where a canvas cannot encode. The browser's encoder is the pipeline's. */
export const encode: Codec['encode'] = (image, { optimise }) =>
  wasmEncode(() => (optimise ? optimisePng(toImageData(image), OPTIMISED) : encodePng(toImageData(image))));
