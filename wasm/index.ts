import type { ImageFormat } from '../workers/formats';
import { decodeLibavif, encodeLibavif } from './avif';
import { decodeMozjpeg, encodeMozjpeg } from './mozjpeg';
import { decodePng, optimisePng } from './png';
import { resizeLanczos3 } from './resize';
import { decodeLibwebp, encodeLibwebp } from './webp';

export { encodeLibavif, encodeLibwebp, encodeMozjpeg, optimisePng, resizeLanczos3 };
export { encodePng } from './png';

/** The decoders for files the browser cannot decode; each is fetched and compiled on first use. */
export const WASM_DECODERS: Record<ImageFormat, (buffer: ArrayBuffer) => Promise<ImageData>> = {
  jpeg: decodeMozjpeg,
  png: decodePng,
  webp: decodeLibwebp,
  avif: decodeLibavif,
};

/** Each format's size-optimising encoder, with its codec's defaults, for warming up. */
const OPTIMISING_ENCODERS: Record<ImageFormat, (image: ImageData) => Promise<ArrayBuffer>> = {
  jpeg: (image) => encodeMozjpeg(image, {}),
  png: (image) => optimisePng(image, {}),
  webp: (image) => encodeLibwebp(image, {}),
  avif: (image) => encodeLibavif(image, {}),
};

/** Which codecs a coming conversion will run: the format's optimising encoder, the resizer, or neither. */
export interface CodecPlan {
  format: ImageFormat;
  encoder: boolean;
  resizer: boolean;
}

/**
 * Fetches, compiles and instantiates what the plan names by running each once on a 4 × 4 image: a codec's
 * start-up finishes only with its first call.
 */
export async function warmCodecs({ format, encoder, resizer }: CodecPlan): Promise<void> {
  const tiny = new ImageData(new Uint8ClampedArray(4 * 4 * 4).fill(255), 4, 4);
  await Promise.all([resizer ? resizeLanczos3(tiny, 2, 2) : null, encoder ? OPTIMISING_ENCODERS[format](tiny) : null]);
}
