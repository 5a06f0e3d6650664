import type { ConversionSettings, JobPlan, SourceHeader } from './contract';
import { formatInfo } from './formats';
import { planGeometry, rotated, turned, type Size } from './geometry';
import { decodedBytes } from './memory';
import { usesBrowserEncoder } from './policy';

/** The source as shown: its stored size, turned a quarter when its orientation says so. */
export const shownSize = (source: SourceHeader): Size => (source.turned ? turned(source.size) : source.size);

/** The pixels an estimate encodes of an output (sampleOutput): a megapixel encodes in a fraction of a 12 MP photo's time. */
export const SAMPLE_PIXELS = 1_000_000;

/**
 * The browser's encoder copies the pixels it is handed: a canvas export holds a second block their size
 * (docs/decisions/memory-budget.md).
 */
const BROWSER_ENCODER_BYTES_PER_PIXEL = 4;

/**
 * A job's plan from its source's header and the settings: made once on the page as the job starts, carried to the
 * worker in the request. Its costs are what the job holds at its largest: the decoded bytes of the source or of a
 * larger output, and what the encoder holds for the pixels it encodes (the whole output; a sample's part): the
 * browser's encoder a copy of them, a WASM encoder the heap it grows to.
 */
export function planJob(source: SourceHeader, settings: ConversionSettings): JobPlan {
  const shown = rotated(shownSize(source), settings.rotation);
  const geometry = planGeometry(shown, settings);
  const output = formatInfo(settings.outputFormat);
  const browserEncoder = usesBrowserEncoder(settings, output);
  const decoded = Math.max(decodedBytes(source.size), decodedBytes(geometry));
  const encoderPerPixel = browserEncoder ? BROWSER_ENCODER_BYTES_PER_PIXEL : output.encoderHeapBytesPerPixel;
  const outputPixels = geometry.width * geometry.height;
  return {
    source,
    shown,
    geometry,
    cost: decoded + encoderPerPixel * outputPixels,
    sampleCost: decoded + encoderPerPixel * Math.min(outputPixels, SAMPLE_PIXELS),
    browserEncoder,
  };
}
