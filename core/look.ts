import type { ConversionSettings, OutputLook } from './contract';
import type { FormatInfo } from './format';
import { hasTargetSize } from './policy';

/**
 * How an output looks beside its source, as both threads speak of it (OutputLook): SSIMULACRA2
 * (workers/pipeline/ssimulacra2.ts), 100 identical, 90 visually lossless, 80 "very high quality" (no difference side
 * by side at 1:1), 70 "high" (artefacts hard to notice without the original beside it), 50 "medium"
 * (docs/decisions/perceptual-score.md).
 */
export type { OutputLook };

export type LookVerdict = 'same' | 'small' | 'visible';

/**
 * Where the verdicts change, on SSIMULACRA2's own scale: from 70, "high quality" (artefacts hard to notice without the
 * original beside it), the output looks the same as it will be seen; from 50, "medium quality", differences are small;
 * below, they show.
 */
export const LOOK_THRESHOLDS = { same: 70, small: 50 } as const;

export const LOOK_VERDICT_TEXT: Record<LookVerdict, string> = { same: 'Looks the same', small: 'Small differences', visible: 'Visible differences' };

export function lookVerdict(score: number): LookVerdict {
  if (score >= LOOK_THRESHOLDS.same) return 'same';
  return score >= LOOK_THRESHOLDS.small ? 'small' : 'visible';
}

/** The score in words with its number, as the job's hover and Compare show it: "SSIMULACRA2 84.2 of 100 · Smart quality 62". */
export function lookDetail(look: OutputLook): string {
  const score = `SSIMULACRA2 ${look.score.toFixed(1)} of 100`;
  return look.smartQuality === null ? score : `${score} · Smart quality ${look.smartQuality}`;
}

/**
 * The score Smart compression holds each image to, from its compression level (50–95, step 5): the level less 15, so
 * the default 85 asks for 70 ("high quality", what image services' automatic quality aims at), 95 for 80 ("very high":
 * no difference side by side at 1:1) and 50 for 35. Chosen on the corpus's photographs (docs/decisions/perceptual-score.md).
 */
export const smartTarget = (compressionLevel: number): number => compressionLevel - 15;

/** Whether Smart compression chooses this output's quality: it is on, the format has a quality, and no target size rules. */
export const choosesQualityByLook = (settings: ConversionSettings, format: Pick<FormatInfo, 'quality'>): boolean =>
  settings.autoCompress && !hasTargetSize(settings) && format.quality !== null;
