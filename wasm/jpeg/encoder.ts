import { encodeNativeOrWasm, toImageData } from '../../workers/pipeline/canvas-encoder';
import type { Codec } from '../codec';
import { encodeMozjpeg } from './loader';
import { jpeg } from './meta';

/** The browser's encoder unless optimising; mozjpeg with the registry's options otherwise. */
export const encode: Codec['encode'] = (image, { quality, optimise }) =>
  encodeNativeOrWasm(image, jpeg.mimeType, { quality, optimise }, () =>
    encodeMozjpeg(toImageData(image), { ...jpeg.optimisedOptions, quality: Math.round(quality * 100) }),
  );
