import { encodeNativeOrWasm, toImageData } from '../../workers/pipeline/canvas-encoder';
import type { Codec } from '../codec';
import { encodeJpegli } from './loader';
import { jpeg, jpegliOptions } from './meta';

/** The browser's encoder unless optimising; jpegli with the registry's options and quality map otherwise. */
export const encode: Codec['encode'] = (image, { quality, optimise }) =>
  encodeNativeOrWasm(image, jpeg.mimeType, { quality, optimise }, () =>
    encodeJpegli(toImageData(image), jpegliOptions(quality)),
  );
