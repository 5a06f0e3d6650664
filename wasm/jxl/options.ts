import { jxl } from '../../core/formats/jxl.ts';
import type { LibjxlOptions } from './libjxl.ts';

/** The registry's options (core/formats/jxl.ts), held to this build's own: a misspelt option fails the type check. */
const OPTIMISED: Pick<LibjxlOptions, 'effort'> = jxl.optimisedOptions;

/** libjxl's effort with "Optimised compression" off: effort 3 made 3 % fewer bytes than 4 in a third more time. */
export const FAST_EFFORT = 4;

/**
 * What the app hands libjxl for the slider's quality (0–1): libjxl's own quality scale (JxlEncoderDistanceFromQuality),
 * lossless at 100 % (`losslessAtMax`); at the slider's 80 it looks a little better than the browser's JPEG at 80 (the
 * quality the bench found for that look: median 77, most photos 75–81); the effort as "Optimised compression" says
 * (`thorough`).
 */
export function libjxlOptions(quality: number, { thorough }: { thorough: boolean }): Omit<LibjxlOptions, 'threads'> {
  const effort = thorough ? OPTIMISED.effort : FAST_EFFORT;
  return { effort, quality: quality >= 1 ? 100 : Math.max(1, Math.round(quality * 100)) };
}
