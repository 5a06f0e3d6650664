import type { OutputSample, SourceFormat } from '../../../core/contract.ts';
import { countOf } from '../../lib/plural.ts';

/**
 * The batch's weight before Convert, from a few files' samples (OutputSample: a part of each output, encoded with the
 * settings). A source's own bytes tell how much detail it holds (a smooth 12 MP JPEG is a tenth of a busy one), so
 * each file is estimated as its bytes, scaled by its change in size, times what that came to for the sampled files of
 * its kind. Pure: the hook that asks the workers for the samples is useBatchEstimate.
 */

/** A file of the batch as the estimate sees it. */
export interface EstimatedFile {
  file: File;
  /** The source's format: sources of a kind compress alike (a PNG screenshot is not a JPEG photo). */
  format: SourceFormat;
  inputPixels: number;
  outputPixels: number;
  /** The most its output can weigh: the target size, or the source itself when it is kept if smaller; null: none. */
  cap: number | null;
}

/** Files sampled for an estimate, at most. */
export const SAMPLES = 3;

/**
 * What an output is expected to weigh before a sample says: the source's bytes, scaled by the square root of the
 * change in pixels. An enlarged image gains pixels, not detail; a reduced one keeps more detail per pixel.
 */
const expected = ({ file, inputPixels, outputPixels }: EstimatedFile) => file.size * Math.sqrt(outputPixels / Math.max(1, inputPixels));

/** The file of each source format that weighs most in the estimate, until there are `max`; then the heaviest left. */
export function filesToSample(files: readonly EstimatedFile[], max = SAMPLES): EstimatedFile[] {
  const heaviest = [...files].sort((a, b) => expected(b) - expected(a));
  const firstOfFormat = heaviest.filter((file, i) => heaviest.findIndex((other) => other.format === file.format) === i);
  return [...firstOfFormat, ...heaviest.filter((file) => !firstOfFormat.includes(file))].slice(0, max);
}

/** A sample's whole output, from its part's bytes per pixel. */
const sampledOutput = (sample: OutputSample) => (sample.bytes / Math.max(1, sample.pixels)) * sample.outputPixels;

/** The batch's estimated output bytes: each file's expected weight times the ratio its format's samples (or all samples) came to. */
export function estimateBytes(files: readonly EstimatedFile[], samples: ReadonlyMap<File, OutputSample>): number {
  const sampled = files.filter((entry) => samples.has(entry.file));
  if (sampled.length === 0) return 0;
  const ratio = (format: SourceFormat) => {
    const alike = sampled.filter((entry) => entry.format === format);
    const basis = alike.length > 0 ? alike : sampled;
    return basis.reduce((sum, entry) => sum + sampledOutput(samples.get(entry.file)!), 0) / Math.max(1, basis.reduce((sum, entry) => sum + expected(entry), 0));
  };
  return files.reduce((sum, entry) => {
    const sample = samples.get(entry.file);
    const bytes = sample ? sampledOutput(sample) : expected(entry) * ratio(entry.format);
    return sum + (entry.cap === null ? bytes : Math.min(entry.cap, bytes));
  }, 0);
}

/** 14 MB, 4.2 MB, 830 KB: two figures are all an estimate has. */
export function roughBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "About 14 MB for 50 images · −72%" (or "+15%" when the batch would grow). */
export function estimateText(bytes: number, images: number, inputBytes: number): string {
  const change = inputBytes > 0 ? Math.round((bytes / inputBytes - 1) * 100) : 0;
  const sign = change < 0 ? '−' : '+';
  return `About ${roughBytes(bytes)} for ${countOf(images, 'image')} · ${sign}${Math.abs(change)}%`;
}
