import { jpeg } from '../../core/formats/jpeg.ts';
import type { JpegliOptions } from '../jpegli/jpegli.ts';
import { knownOptions } from '../codec.ts';

/**
 * The lowest jpegli quality that looks at least as good as the browser's encoder at each of the slider's settings,
 * on every one of the photographs `npm run bench:encoders -- --look` measures (SSIMULACRA2; docs/decisions/
 * encoder-settings.md). jpegli's quality scale is not libjpeg's (jpegli maps it to a butteraugli distance): at the
 * same number it looks better than the browser's below 70 and worse above, so the slider goes through this map to
 * keep its meaning. At 100 nothing jpegli makes at 4:2:0 quite matches the browser's; it gives its best.
 */
const JPEGLI_QUALITY_AT_SLIDER: Readonly<Record<number, number>> = {
  // Measured at 10, 20, … 70, 75, … 100; 15, 25, 35 and 45 are between their neighbours.
  10: 1, 15: 7, 20: 13, 25: 16, 30: 19, 35: 23, 40: 27, 45: 36, 50: 45, 55: 49, 60: 56, 65: 62, 70: 68, 75: 78,
  80: 85, 85: 90, 90: 94, 95: 98, 100: 100,
};

/**
 * The jpegli quality (1–100) for the slider's quality (0–1): the map above, straight between its points, for the
 * target-size search's in-between qualities too.
 */
export function jpegliQuality(quality: number): number {
  const percent = Math.max(1, Math.min(100, quality * 100));
  const below = Math.max(10, Math.floor(percent / 5) * 5);
  if (percent <= 10) return Math.max(1, Math.round((percent * JPEGLI_QUALITY_AT_SLIDER[10]!) / 10));
  if (below >= 100) return JPEGLI_QUALITY_AT_SLIDER[100]!;
  const [low, high] = [JPEGLI_QUALITY_AT_SLIDER[below]!, JPEGLI_QUALITY_AT_SLIDER[below + 5]!];
  return Math.round(low + ((high - low) * (percent - below)) / 5);
}

/** The registry's options (core/formats/jpeg.ts), held to jpegli's own: a misspelt option fails the type check. */
const OPTIMISED = knownOptions<Omit<JpegliOptions, 'quality'>>()(jpeg.optimisedOptions);

/** What the app hands jpegli for the slider's quality (0–1): the registry's options at the quality the map gives. */
export const jpegliOptions = (quality: number): JpegliOptions => ({ ...OPTIMISED, quality: jpegliQuality(quality) });
