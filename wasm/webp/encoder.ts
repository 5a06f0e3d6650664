import { toImageData } from '../../core/raw-image.ts';
import type { EncodeOptions } from '@jsquash/webp/meta';
import { knownOptions, type Codec } from '../codec.ts';
import { wasmEncode } from '../wasm-encode.ts';
import { encodeLibwebp } from './loader.ts';
import { webp } from '../../core/formats/webp.ts';

/** The registry's options, held to libwebp's own. */
const OPTIMISED = knownOptions<EncodeOptions>()(webp.optimisedOptions);

/** libwebp with the registry's options: where a browser's canvas cannot encode WebP. The browser's encoder is the pipeline's. */
export const encode: Codec['encode'] = (image, { quality }) => wasmEncode(() => encodeLibwebp(toImageData(image), { ...OPTIMISED, quality: quality * 100 }));
