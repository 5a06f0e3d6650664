import { encodeNativeOrWasm, toImageData } from '../../workers/pipeline/canvas-encoder';
import type { Codec } from '../codec';
import { encodePng, optimisePng } from './loader';
import { png } from './meta';

/** The browser's encoder unless optimising (then oxipng); the WASM PNG encoder where a canvas cannot encode. */
export const encode: Codec['encode'] = (image, { optimise }) =>
  encodeNativeOrWasm(image, png.mimeType, { optimise }, () =>
    optimise ? optimisePng(toImageData(image), png.optimisedOptions) : encodePng(toImageData(image)),
  );
