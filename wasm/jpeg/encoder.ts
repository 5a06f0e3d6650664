import { encodeNativeOrWasm, toImageData } from '../../workers/pipeline/canvas-encoder.ts';
import type { Codec } from '../codec.ts';
import { encodeJpegli } from './loader.ts';
import { jpeg, jpegliOptions } from './meta.ts';

/** The browser's encoder unless optimising; jpegli with the registry's options and quality map otherwise. */
export const encode: Codec['encode'] = (image, { quality, optimise }) =>
  encodeNativeOrWasm(image, jpeg.mimeType, { quality, optimise }, () =>
    encodeJpegli(toImageData(image), jpegliOptions(quality)),
  );
