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
 * A job's plan from its source's header and the settings: made once on the page as the job starts, carried to the
 * worker in the request. Its costs are what the job holds at its largest: the decoded bytes of the source or of a
 * larger output, and, when a WASM encoder writes the output, the heap that encoder grows to for the pixels it
 * encodes (the whole output; a sample's part).
 */
export function planJob(source: SourceHeader, settings: ConversionSettings): JobPlan {
  const shown = rotated(shownSize(source), settings.rotation);
  const geometry = planGeometry(shown, settings);
  const output = formatInfo(settings.outputFormat);
  const browserEncoder = usesBrowserEncoder(settings, output);
  const decoded = Math.max(decodedBytes(source.size), decodedBytes(geometry));
  const heapPerPixel = browserEncoder ? 0 : output.encoderHeapBytesPerPixel;
  const outputPixels = geometry.width * geometry.height;
  return {
    source,
    shown,
    geometry,
    cost: decoded + heapPerPixel * outputPixels,
    sampleCost: decoded + heapPerPixel * Math.min(outputPixels, SAMPLE_PIXELS),
    browserEncoder,
  };
}
