/**
 * Smart compression's search: the lowest quality level whose output of the whole image scores at least the target.
 * An encode of the whole image is what costs, so the search reads a cheap predictor and checks it on few of those:
 * - the predictor is a curve: the image's view (workers/pipeline/look.ts: its tiles side by side) encoded and scored at
 *   four levels, straight between them, moved by an offset the whole encodes teach (a whole encode's score less the
 *   curve's at its level). For JPEG the view alone tracks the whole image within a point; libwebp analyses the whole
 *   picture it is given, and a view of tiles scored up to 20 points lower than the same tiles of the whole encode
 *   (docs/benchmark.md), which the offset takes out.
 * - each whole encode goes where the target is crossed, inside the bracket the whole encodes so far leave (the
 *   highest level that fell short, the lowest that reached it): on the line between two whole encodes once they
 *   bracket it, on the moved curve before. It stops when the next level would be one already settled, or at the
 *   encode budget.
 * The lowest level that reached the target wins; when none did within the budget, the top level is encoded. No output
 * scores below the target unless even the top level does. A score rises with the quality, give or take the metric's
 * noise; the search trusts that.
 */

/** Encodes of the whole image before the search takes the best it has (or the top level). */
export const SMART_WHOLE_ENCODES = 3;

/** The levels (percent of the top) the view is encoded at once: the predictor's curve, straight between them. */
export const SMART_VIEW_LEVELS = [25, 50, 75, 95] as const;

/** Below this quality no photograph reached even the lowest target on the corpus: the search starts above it. */
export const SMART_FLOOR = 10;

export interface SmartSearchOptions<T> {
  /** The score to reach (core/look.ts smartTarget). */
  target: number;
  /** The highest level (100 for whole percents). */
  levels: number;
  /** The view's score at a level (cheap). */
  viewScoreAt: (level: number) => Promise<number>;
  /** The whole image encoded at a level, and its score (dear). */
  wholeAt: (level: number) => Promise<{ score: number; output: T }>;
  maxWholeEncodes?: number;
}

export interface SmartSearchResult<T> {
  level: number;
  score: number;
  output: T;
  wholeEncodes: number;
  viewEncodes: number;
}

export interface Point {
  level: number;
  score: number;
}

/** The score at `level` on the curve through `points` (sorted by level), straight between them and flat past the ends. */
export function scoreOnCurve(points: readonly Point[], level: number): number {
  const first = points[0]!, last = points[points.length - 1]!;
  if (level <= first.level) return first.score;
  if (level >= last.level) return last.score;
  const above = points.findIndex((point) => point.level >= level);
  const [low, high] = [points[above - 1]!, points[above]!];
  return low.score + ((high.score - low.score) * (level - low.level)) / (high.level - low.level);
}

/** The lowest level in (low, high) whose score on the curve, plus `offset`, reaches `target`; `high` when none does. */
export function levelReaching(points: readonly Point[], target: number, offset: number, low: number, high: number): number {
  for (let level = low + 1; level < high; level++) if (scoreOnCurve(points, level) + offset >= target) return level;
  return high;
}

export async function searchSmartQuality<T>({ target, levels, viewScoreAt, wholeAt, maxWholeEncodes = SMART_WHOLE_ENCODES }: SmartSearchOptions<T>): Promise<SmartSearchResult<T>> {
  const viewLevels = [...new Set(SMART_VIEW_LEVELS.map((percent) => Math.max(1, Math.round((percent / 100) * levels))))];
  const view: Point[] = [];
  for (const level of viewLevels) view.push({ level, score: await viewScoreAt(level) });

  const wholes: Point[] = [];
  let best: { level: number; score: number; output: T } | null = null;
  let fallsShort = SMART_FLOOR; // the highest whole-encoded level that fell short (or the floor)
  let level = Math.min(levels, levelReaching(view, target, 0, SMART_FLOOR, levels + 1));
  while (wholes.length < maxWholeEncodes) {
    const whole = await wholeAt(level);
    wholes.push({ level, score: whole.score });
    if (whole.score >= target) best = { level, ...whole };
    else fallsShort = level;
    if (level >= levels && !best) return { level, ...whole, wholeEncodes: wholes.length, viewEncodes: view.length };
    const ceiling = best ? best.level : levels + 1;
    if (ceiling - fallsShort <= 1) break;
    // Two whole encodes that bracket the target: straight between them. Otherwise the view's curve, moved by what the
    // nearest whole encode showed it to be off by.
    const sorted = [...wholes].sort((a, b) => a.level - b.level);
    const bracket = sorted.length >= 2 && sorted.some((point) => point.score < target) && sorted.some((point) => point.score >= target);
    const nearest = sorted.reduce((a, b) => (Math.abs(b.level - level) < Math.abs(a.level - level) ? b : a));
    const next = bracket ? levelReaching(sorted, target, 0, fallsShort, ceiling) : levelReaching(view, target, nearest.score - scoreOnCurve(view, nearest.level), fallsShort, ceiling);
    if (next >= ceiling || next <= fallsShort || next === level) break;
    level = Math.min(levels, next);
  }
  if (best) return { ...best, wholeEncodes: wholes.length, viewEncodes: view.length };
  const top = await wholeAt(levels);
  return { level: levels, ...top, wholeEncodes: wholes.length + 1, viewEncodes: view.length };
}
