import { toImageData } from '../../core/raw-image.ts';
import type { Codec } from '../codec.ts';
import { wasmEncode } from '../wasm-encode.ts';
import { encodeLibwebp } from './loader.ts';
import { webp } from './meta.ts';

/** libwebp with the registry's options: where a browser's canvas cannot encode WebP. The browser's encoder is the pipeline's. */
export const encode: Codec['encode'] = (image, { quality }) => wasmEncode(() => encodeLibwebp(toImageData(image), { ...webp.optimisedOptions, quality: quality * 100 }));
