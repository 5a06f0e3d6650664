import { encodeNativeOrWasm, toImageData } from '../../workers/pipeline/canvas-encoder.ts';
import type { Codec } from '../codec.ts';
import { encodeLibwebp } from './loader.ts';
import { webp } from './meta.ts';

/** The browser's encoder unless optimising; libwebp with the registry's options otherwise (or where a canvas cannot). */
export const encode: Codec['encode'] = (image, { quality, optimise }) =>
  encodeNativeOrWasm(image, webp.mimeType, { quality, optimise }, () =>
    encodeLibwebp(toImageData(image), { ...webp.optimisedOptions, quality: quality * 100 }),
  );
