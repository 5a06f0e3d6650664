import type { ConversionSettings, OutputLook } from './contract.ts';
import type { FormatInfo } from './format.ts';
import type { Rect, Size } from './geometry.ts';
import { hasTargetSize } from './policy.ts';

/**
 * How an output looks beside its source, as both threads speak of it (OutputLook): SSIMULACRA2 (wasm/ssimulacra2/),
 * 100 identical, 90 visually lossless, 80 "very high quality" (no difference side by side at 1:1), 70 "high"
 * (artefacts hard to notice without the original beside it), 50 "medium" (docs/decisions/perceptual-score.md).
 */

export type LookVerdict = 'same' | 'small' | 'visible';

/**
 * Where the verdicts change, on SSIMULACRA2's own scale (50 "medium quality", 70 "high quality": artefacts hard to
 * notice without the original beside it): from 65, nearer high than medium, the output looks the same as it will be
 * seen; from 45, differences are small; below, they show (docs/decisions/perceptual-score.md).
 */
export const LOOK_THRESHOLDS = { same: 65, small: 45 } as const;

export const LOOK_VERDICT_TEXT: Record<LookVerdict, string> = { same: 'Looks the same', small: 'Small differences', visible: 'Visible differences' };

/** A finished output's verdict while it waits to be judged after its batch: no longer than a verdict, for a 360 px phone's line. */
export const LOOK_PENDING_TEXT = 'Checking look…';

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
 * The score Smart compression holds each image to, from its compression level (50–95, step 5): the level less 20, so
 * the default 85 asks for 65 (where the verdict "Looks the same" starts; about what libjpeg-turbo's quality 60–65 gives
 * a photo on average), 95 for 75 (what the default WebP at quality 80 gives a photo, median) and 50 for 30. Chosen on
 * the corpus's photographs, where at 65 the default format came out at about 0.7× the bytes of quality 80 and at 68
 * at 0.8× (docs/decisions/perceptual-score.md).
 */
export const smartTarget = (compressionLevel: number): number => compressionLevel - 20;

/**
 * The smallest side SSIMULACRA2 scores (its first scale's 8 × 8 blocks): a smaller output (PngSuite's 1–7 px images, a
 * favicon) is not judged, and Smart compression leaves it at the slider's quality. Judged, it threw, and a batch that
 * judged it at once (past the looks the queue keeps for later) failed the file that converted alone.
 */
export const MIN_JUDGED_SIDE = 8;

/** Whether an output this size can be judged; with no size (a warm-up for any output), it may be. */
const judgeable = (size: Size | undefined): boolean => !size || (size.width >= MIN_JUDGED_SIDE && size.height >= MIN_JUDGED_SIDE);

/**
 * Whether Smart compression chooses this output's quality: it is on, the format has a quality, no target size rules,
 * and the output (`size`, where known) can be judged.
 */
export const choosesQualityByLook = (settings: ConversionSettings, format: Pick<FormatInfo, 'quality'>, size?: Size): boolean =>
  settings.autoCompress && !hasTargetSize(settings) && format.quality !== null && judgeable(size);

/**
 * Whether a conversion's output is judged (workers/pipeline/convert.ts), as the worker decides and the page plans its
 * memory and warm-up for: a lossy output (not PNG, not JPEG XL at 100% unless Smart compression chooses its quality),
 * no target size, whose outputs answer to their bytes, and an output (`size`, where known) large enough to judge.
 */
export const judgesOutput = (settings: ConversionSettings, format: Pick<FormatInfo, 'quality'>, size?: Size): boolean =>
  format.quality !== null && !hasTargetSize(settings) && (settings.autoCompress || !(format.quality.losslessAtMax && settings.quality >= 100)) && judgeable(size);

/** Tiles a side, and each tile's side: 9 tiles of 256 × 256, 0.59 MP, a 768 × 768 view. */
export const LOOK_GRID = 3;
export const LOOK_TILE = 256;
const BLOCK = 16;

/**
 * The tiles judged of an image this size: a LOOK_GRID × LOOK_GRID grid of squares (LOOK_TILE, or `tileSide` for a
 * copy at another scale) spread evenly (the first at the top left, the last at the bottom right), on the macroblock
 * grid; the whole image when it is no larger than the view.
 */
export function lookTiles({ width, height }: Size, tileSide = LOOK_TILE): Rect[] {
  const side = LOOK_GRID * tileSide;
  if (width <= side && height <= side) return [{ x: 0, y: 0, width, height }];
  const along = (length: number) => {
    const tile = Math.min(tileSide, length);
    const count = Math.min(LOOK_GRID, Math.floor(length / tile));
    const room = length - tile;
    return Array.from({ length: count }, (_, i) => {
      const start = count === 1 ? Math.floor(room / 2) : Math.floor((room * i) / (count - 1));
      return { start: Math.min(room, Math.round(start / BLOCK) * BLOCK), length: tile };
    });
  };
  const columns = along(width), rows = along(height);
  return rows.flatMap((row) => columns.map((column) => ({ x: column.start, y: row.start, width: column.length, height: row.length })));
}
