import type { EncodeOptions } from '@jsquash/jxl/meta';
import { jxl } from '../../core/formats/jxl.ts';
import { knownOptions } from '../codec.ts';

/** The registry's options (core/formats/jxl.ts), held to libjxl's own: a misspelt option fails the type check. */
export const OPTIMISED = knownOptions<EncodeOptions>()(jxl.optimisedOptions);

/** libjxl's effort with "Optimised compression" off: efforts 3 and 4 took the same time for the same bytes. */
export const FAST_EFFORT = 4;

/**
 * What the app hands libjxl for the slider's quality (0–1): lossless at 100 % (`losslessAtMax`), else libjxl's own
 * quality scale, which at the slider's 80 looks about as the browser's JPEG at 80 does (the quality the bench found
 * for that look: median 82, most photos 76–84); the effort as "Optimised compression" says (`thorough`).
 */
export function libjxlOptions(quality: number, { thorough }: { thorough: boolean }): Partial<EncodeOptions> {
  const effort = thorough ? OPTIMISED.effort : FAST_EFFORT;
  return quality >= 1 ? { effort, lossless: true, quality: 100 } : { effort, quality: Math.max(1, Math.round(quality * 100)) };
}
