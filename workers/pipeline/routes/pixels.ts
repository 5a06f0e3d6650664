import type { ConversionSettings, ConvertRequest, JobPlan } from '../../../core/contract.ts';
import { sourceFormatInfo } from '../../../core/formats.ts';
import { resolutionNeeded, rotated, turned, type Size } from '../../../core/geometry.ts';
import { CONVERSION_ERRORS, outputTooLargeMessage } from '../../../core/messages.ts';
import { shownSizeOf } from '../../../core/orientation.ts';
import { shownSize } from '../../../core/plan.ts';
import { SOURCE_CODECS, type Codec } from '../../../wasm/index.ts';
import { bitmapToPixels } from '../bitmap-pixels.ts';
import { orientationLeftByBrowser } from '../browser-orientation.ts';
import { decodeToBitmap, decodeWithWasm, oneDecodeAtATime } from '../decode.ts';
import { encodePixels, type PixelEncoding } from '../encode.ts';
import { STAGE_END, type EncodedImage, type EncodeRequest, type ProgressReporter, type SourceBytes } from '../job.ts';
import { uprightPixels } from '../pixels.ts';
import { releasePixels, type RawImage } from '../../../core/raw-image.ts';
import { decodeScaledBitmap } from '../scaled-decode.ts';
import { geometryFor, transform, type Resizer } from '../transform.ts';
import { flattens } from './bitmap.ts';

/**
 * The pixel routes ('pixels', 'target-size', 'smart', and a bitmap or rows the browser could not take): the source
 * decoded into upright pixels, transformed (rotation, crop, resize, adjustments, flattening), then encoded as the route
 * asks (encode.ts).
 */

/** Refuses an output size (a resize, a custom size) over the limit before any pixel is resampled. */
function checkOutputSize(upright: Size, settings: ConversionSettings, plan: JobPlan, pixelLimit: number): void {
  const { width, height } = geometryFor(rotated(upright, settings.rotation), settings, plan);
  if (width * height > pixelLimit) throw new Error(outputTooLargeMessage(width * height, pixelLimit));
}

/** Decoded upright pixels, and the upright source's full size when they were decoded smaller (see TransformOptions.fullSize). */
export interface Decoded {
  pixels: RawImage;
  fullSize: Size | null;
}

/**
 * How much more than the output's resolution a scaled decode keeps, so Lanczos3 still does a real part of the
 * downscale: decoded at exactly the output's resolution, the DCT's softer scaling showed (docs/decisions).
 */
const SCALED_DECODE_HEADROOM = 1.5;

/**
 * The bitmap a conversion that changes pixels starts from: decoded smaller in the browser's decoder when the output
 * needs well under the source's resolution and the format allows it (a 12 MP photo for "Web 1920 wide" decodes at
 * three quarters of its width, 56% of the pixels), whole otherwise. With the full size as decoded when smaller.
 */
async function decodeForOutput(file: Blob, plan: JobPlan, settings: ConversionSettings): Promise<{ bitmap: ImageBitmap; fullSize: Size | null } | null> {
  const { source } = plan;
  const format = sourceFormatInfo(source.format);
  const stored = source.size;
  const scale = Math.min(1, resolutionNeeded(shownSize(source), settings) * SCALED_DECODE_HEADROOM);
  if (format.scaledDecode && scale < 7 / 8) {
    const bitmap = await decodeScaledBitmap(file, format.mimeType, stored, scale);
    if (bitmap) {
      const decodedTurned = stored.width >= stored.height !== bitmap.width >= bitmap.height;
      const fullSize = decodedTurned ? turned(stored) : stored;
      // The header's orientation decided the scale; the decoder's is the one that counts. Too small: decode whole.
      if (bitmap.width >= Math.floor(fullSize.width * resolutionNeeded(fullSize, settings))) return { bitmap, fullSize };
      bitmap.close();
    }
  }
  const bitmap = await decodeToBitmap(file);
  return bitmap && { bitmap, fullSize: null };
}

/**
 * The source's upright pixels: the browser's decode (the bitmap a route before could not take, or a new one), turned
 * here only where the browser left its orientation to the page (orientationLeftByBrowser), or the format's WASM
 * decoder's. An output over the limit is refused before the pixels are read out.
 */
export async function decodeUpright({ file, settings, plan, pixelLimit }: ConvertRequest, sourceBytes: SourceBytes, decodedBitmap: ImageBitmap | null): Promise<Decoded | null> {
  const decoded = decodedBitmap ? { bitmap: decodedBitmap, fullSize: null } : await decodeForOutput(file, plan, settings);
  if (decoded) {
    const left = await orientationLeftByBrowser(plan.source.format, plan.source.orientation);
    const fullSize = decoded.fullSize && shownSizeOf(decoded.fullSize, left);
    try {
      checkOutputSize(fullSize ?? shownSizeOf(decoded.bitmap, left), settings, plan, pixelLimit);
    } catch (error) {
      decoded.bitmap.close();
      throw error;
    }
    const stored = await bitmapToPixels(decoded.bitmap);
    const upright = uprightPixels(stored, left);
    if (upright !== stored) releasePixels(stored);
    return { pixels: upright, fullSize };
  }
  const pixels = await decodeWithWasm(await sourceBytes.read(), SOURCE_CODECS[plan.source.format], plan.source.orientation);
  if (pixels) checkOutputSize(pixels, settings, plan, pixelLimit);
  return pixels && { pixels, fullSize: null };
}

/** Reading out the pixels is the memory-heavy step (bitmap, canvas and ImageData): on a small device workers take turns. */
export function decodeInTurn<T>({ decodeAlone }: Pick<ConvertRequest, 'decodeAlone'>, decodeStep: () => Promise<T>): Promise<T> {
  return decodeAlone ? oneDecodeAtATime(decodeStep) : decodeStep();
}

/** Upright pixels transformed as the settings say (flattened where the output has no alpha). */
export function transformed(decoded: Decoded, output: Codec, { settings, plan }: EncodeRequest, resize: Resizer): Promise<RawImage> {
  return transform(decoded.pixels, settings, { resize, flatten: flattens(output, plan.source.format), fullSize: decoded.fullSize, plan });
}

/** transform → encode as the route asks, on decoded upright pixels. */
export async function pixelsToEncoder(
  decoded: Decoded | null,
  output: Codec,
  request: EncodeRequest,
  encoding: PixelEncoding,
  resize: Resizer,
  reservedBytes: number,
  report: ProgressReporter,
): Promise<EncodedImage> {
  if (!decoded) throw new Error(CONVERSION_ERRORS.load);
  report({ percent: STAGE_END.decode, stage: { name: 'transforming' } });
  const image = await transformed(decoded, output, request, resize);
  // Pixels nothing reads again are freed at once, not at the worker's next collection (releasePixels).
  if (image.data !== decoded.pixels.data) releasePixels(decoded.pixels);
  report({ percent: STAGE_END.transform, stage: { name: 'encoding' } });
  const { bytes, encodes, look, lookSource } = await encodePixels(image, output, request, encoding, reservedBytes, report).finally(() => releasePixels(image));
  return { bytes, mimeType: output.format.mimeType, width: image.width, height: image.height, encodes, look, lookSource };
}
