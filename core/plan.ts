import type { ConversionSettings, JobPlan, Route, SourceHeader } from './contract.ts';
import { encoderHeapBytes, type FormatInfo } from './format.ts';
import { formatInfo, sourceFormatInfo } from './formats.ts';
import { changesPixels, planGeometry, rotated, type Size } from './geometry.ts';
import { shownSizeOf, UPRIGHT } from './orientation.ts';
import { decodedBytes } from './memory.ts';
import { choosesQualityByLook, judgesOutput } from './look.ts';
import { hasTargetSize, plannedEncoder } from './policy.ts';

export { ROUTES, type Route } from './contract.ts';

/** The source as shown: its stored size, turned a quarter when its orientation says so. */
export const shownSize = (source: SourceHeader): Size => shownSizeOf(source.size, source.orientation);

/** The pixels an estimate encodes of an output (sampleOutput): a megapixel encodes in a fraction of a 12 MP photo's time. */
export const SAMPLE_PIXELS = 1_000_000;

/**
 * The browser's encoder copies the pixels it is handed: a canvas export holds a second block their size
 * (docs/decisions/memory-budget.md).
 */
const BROWSER_ENCODER_BYTES_PER_PIXEL = 4;

/**
 * Judging a lossy output (workers/pipeline/look.ts) decodes it whole: a bitmap of its pixels, held after the encoder is
 * done. The browser's encoder has let its copy go by then (the same bytes again, not more); a WASM encoder's heap stays.
 */
const LOOK_DECODE_BYTES_PER_PIXEL = 4;

/**
 * Lanczos3 (wasm/resize) resamples in floating point and grows its heap to about this much per pixel of the image it
 * is handed and per pixel of the one it makes (`npm run bench:heaps`); like an encoder's, the heap never shrinks while
 * its worker lives.
 */
export const RESIZER_HEAP_BYTES = { perSourcePixel: 26, perOutputPixel: 32 } as const;

/**
 * The route a job takes (contract.ts Route): a search where the settings ask for one, the pixels where they change;
 * a plain re-encode hands the decoded bitmap to the browser's encoder when the browser writes the output, or reads the
 * decoded frame's rows into a WASM encoder that takes rows when the source is stored upright (rows are read as
 * stored); the pixels otherwise. The worker may still leave a bitmap or rows for the pixels (RouteTaken).
 */
export function planRoute(source: SourceHeader, settings: ConversionSettings, output: FormatInfo, encoder: JobPlan['encoder']): Route {
  if (hasTargetSize(settings)) return 'target-size';
  if (choosesQualityByLook(settings, output, planGeometry(rotated(shownSize(source), settings.rotation), settings))) return 'smart';
  if (changesPixels(shownSize(source), settings)) return 'pixels';
  if (encoder === 'browser') return 'bitmap';
  return output.rowsEncoder && source.orientation === UPRIGHT ? 'rows' : 'pixels';
}

/**
 * A job's plan from its source's header and the settings: made once on the page as the job starts, carried to the
 * worker in the request. Its costs are what the job holds at its largest: the decoded bytes of the source or of a
 * larger output, the decoder's own memory where a WASM or script decoder stands in for the browser's (HEIC, JPEG XL, TIFF),
 * the resizer's heap when the output is resampled, and what the encoder holds for the pixels it encodes (the whole
 * output; a sample's part): the browser's encoder a copy of them, a WASM encoder the heap it grows to.
 */
export function planJob(source: SourceHeader, settings: ConversionSettings, browserEncodes: (mimeType: string) => boolean): JobPlan {
  const shown = rotated(shownSize(source), settings.rotation);
  const geometry = planGeometry(shown, settings);
  const output = formatInfo(settings.outputFormat);
  const encoder = plannedEncoder(settings, output, browserEncodes);
  const decoded = Math.max(decodedBytes(source.size), decodedBytes(geometry)) + (sourceFormatInfo(source.format).decoderBytesPerPixel ?? 0) * source.size.width * source.size.height;
  const lookPerPixel = judgesOutput(settings, output, geometry) ? LOOK_DECODE_BYTES_PER_PIXEL : 0;
  const encoderBytes = (pixels: number) => (encoder === 'browser' ? BROWSER_ENCODER_BYTES_PER_PIXEL * pixels : encoderHeapBytes(output, pixels) + lookPerPixel * pixels);
  // Smart compression also holds the image at half size, what it encodes to guess a quality's look.
  const smartPreview = choosesQualityByLook(settings, output, geometry) ? decodedBytes(geometry) / 4 : 0;
  const outputPixels = geometry.width * geometry.height;
  // The crop at the source's full size: a smaller decode (decode-smaller.md) is what some browsers cannot do.
  const resampled = geometry.width !== geometry.crop.width || geometry.height !== geometry.crop.height;
  const resizerHeap = resampled ? RESIZER_HEAP_BYTES.perSourcePixel * geometry.crop.width * geometry.crop.height + RESIZER_HEAP_BYTES.perOutputPixel * outputPixels : 0;
  return {
    source,
    shown,
    geometry,
    cost: decoded + resizerHeap + encoderBytes(outputPixels) + smartPreview,
    sampleCost: decoded + resizerHeap + encoderBytes(Math.min(outputPixels, SAMPLE_PIXELS)) + smartPreview,
    encoder,
    route: planRoute(source, settings, output, encoder),
  };
}
