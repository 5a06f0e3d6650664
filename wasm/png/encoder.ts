import { encodeNativeOrWasm, toImageData } from '../../workers/pipeline/canvas-encoder.ts';
import type { Codec } from '../codec.ts';
import { encodePng, optimisePng } from './loader.ts';
import { png } from './meta.ts';

/** The browser's encoder unless optimising (then oxipng); the WASM PNG encoder where a canvas cannot encode. */
export const encode: Codec['encode'] = (image, { optimise }) =>
  encodeNativeOrWasm(image, png.mimeType, { optimise }, () =>
    optimise ? optimisePng(toImageData(image), png.optimisedOptions) : encodePng(toImageData(image)),
  );
