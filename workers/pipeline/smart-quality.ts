/**
 * Smart compression's search: the lowest quality level whose output of the whole image scores at least the target.
 * An encode of the whole image is what costs, so the search reads a cheap predictor and checks it on few of those:
 * - the predictor is a curve: the image's view (workers/pipeline/look.ts: its tiles side by side) or its half-size
 *   copy (FormatInfo.quality.lookPredictor) encoded and scored at two levels (SMART_VIEW_LEVELS), moved by an
 *   offset the whole encodes teach (a whole encode's score less the curve's at its level). For JPEG the view alone
 *   tracks the whole image within a point; libwebp analyses the whole picture it is given, and its half-size copy
 *   tracks it within a few points where the tiles alone scored up to 25 low (docs/decisions/perceptual-score.md).
 * - each whole encode goes where the target is crossed, inside the bracket the whole encodes so far leave (the
 *   highest level that fell short, the lowest that reached it): on the line between two whole encodes once they
 *   bracket it, on the moved curve before. It stops when the next level would be one already settled, or at the
 *   encode budget.
 * The lowest level that reached the target wins; when none did within the budget, one more try well above where they
 * point, then the top level is encoded. No output scores below the target unless even the top level does. A score
 * rises with the quality, give or take the metric's noise; the search trusts that.
 *
 * It is never worse than the simple choice, the slider's own quality (`simpleLevel`): no whole encode goes above that
 * level before it has been tried, so where it reaches the target the answer is at most it (a 24 MP grainy wallpaper
 * climbed past it to a 20 MB file when it did not). And the top is the encoder's highest lossy level (`topLevel`): the
 * browsers' WebP at quality 1.0 is lossless, 23 times the bytes of quality 80 on that photo.
 */

/** Encodes of the whole image before the search takes the best it has (or the top level). */
export const SMART_WHOLE_ENCODES = 3;

/**
 * The levels (percent of the top) the predictor is encoded at: the middle first, then below it when it already reaches
 * the target, above it when not; the curve is straight between the two and their line past them. Two points where the
 * target is crossed told the whole encodes as much as three fixed ones (the corpus's photographs, targets 55–75), for
 * a third less of the predictor's time.
 */
export const SMART_VIEW_LEVELS = { first: 60, below: 30, above: 90 } as const;

/** A whole encode this close above the target is kept: a lower level would save little for another whole encode. */
export const SMART_CLOSE_ENOUGH = 4;

/** The search's floor, in percent of the top level: the lowest level it tries is just above. */
export const SMART_FLOOR_PERCENT = 10;

export interface SmartSearchOptions<T> {
  /** The score to reach (core/look.ts smartTarget). */
  target: number;
  /** The highest level (100 for whole percents): quality is level ÷ levels. */
  levels: number;
  /** The highest level the search may take (a lossless one above it is not a lossy quality); `levels` unless said. */
  topLevel?: number;
  /** The slider's own quality as a level: the search takes no level above it until it has tried it. Null: none. */
  simpleLevel?: number | null;
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

/** The score at `level` on the line through two points. */
const scoreOnLine = (a: Point, b: Point, level: number): number => a.score + ((b.score - a.score) * (level - a.level)) / (b.level - a.level);

/**
 * The score at `level` on the curve through `points` (sorted by level): straight between them, and past either end
 * along the end segment's line while it rises (flat where it falls, or with one point). Read flat below the first
 * point, every level under it looked as good as it, and a photo whose preview scored above the target at 30% was
 * whole-encoded at 10% first, far short.
 */
export function scoreOnCurve(points: readonly Point[], level: number): number {
  const first = points[0]!, last = points[points.length - 1]!;
  if (points.length === 1) return first.score;
  // The segment the level falls in, or the end segment it lies beyond.
  const above = points.findIndex((point) => point.level >= level);
  const end = above === -1 ? points.length - 1 : Math.max(1, above);
  const [low, high] = [points[end - 1]!, points[end]!];
  if (high.score <= low.score && (level < first.level || level > last.level)) return level < first.level ? first.score : last.score;
  return scoreOnLine(low, high, level);
}

/** The lowest level in (low, high) whose score on the curve, plus `offset`, reaches `target`; `high` when none does. */
export function levelReaching(points: readonly Point[], target: number, offset: number, low: number, high: number): number {
  for (let level = low + 1; level < high; level++) if (scoreOnCurve(points, level) + offset >= target) return level;
  return high;
}

/** Where a line through two points reaches `score`; null when it does not rise. */
function levelOnLine(a: Point, b: Point, score: number): number | null {
  const slope = (b.score - a.score) / (b.level - a.level);
  return slope > 0 ? Math.ceil(a.level + (score - a.score) / slope) : null;
}

/** How far above the target a next encode aims: the scores move in steps, and a level just short costs one more encode. */
const AIM_ABOVE = 2;

/** Where the last encode aims when none has reached the target: far enough above it that it should. */
const RESCUE_ABOVE = 1.5;

export async function searchSmartQuality<T>({ target, levels, topLevel = levels, simpleLevel = null, viewScoreAt, wholeAt, maxWholeEncodes = SMART_WHOLE_ENCODES }: SmartSearchOptions<T>): Promise<SmartSearchResult<T>> {
  const top = Math.min(levels, topLevel);
  const simple = simpleLevel === null ? null : Math.max(1, Math.min(top, simpleLevel));
  const levelAt = (percent: number) => Math.max(1, Math.round((percent / 100) * levels));
  const firstLevel = levelAt(SMART_VIEW_LEVELS.first);
  const first = { level: firstLevel, score: await viewScoreAt(firstLevel) };
  const secondLevel = levelAt(first.score >= target + AIM_ABOVE ? SMART_VIEW_LEVELS.below : SMART_VIEW_LEVELS.above);
  const view: Point[] = secondLevel === first.level ? [first] : [first, { level: secondLevel, score: await viewScoreAt(secondLevel) }].sort((a, b) => a.level - b.level);

  const wholes: Point[] = [];
  // Held in an object: encodeWhole sets it, and a plain `let` would stay narrowed to null out here.
  const found: { best: { level: number; score: number; output: T } | null } = { best: null };
  const floor = Math.round((SMART_FLOOR_PERCENT / 100) * levels);
  let fallsShort = floor; // the highest whole-encoded level that fell short (or the floor)
  const encodeWhole = async (level: number) => {
    const whole = await wholeAt(level);
    wholes.push({ level, score: whole.score });
    if (whole.score >= target) {
      if (!found.best || level < found.best.level) found.best = { level, ...whole };
    } else fallsShort = Math.max(fallsShort, level);
    return whole;
  };
  const done = (result: { level: number; score: number; output: T }): SmartSearchResult<T> => ({ ...result, wholeEncodes: wholes.length, viewEncodes: view.length });
  /** No level above the slider's own before it has been tried: where it reaches the target, the answer is at most it. */
  const notPastSimple = (level: number): number => (simple !== null && level > simple && !wholes.some((point) => point.level === simple) ? simple : level);
  /**
   * The level the next whole encode should take to score `aim`: on the line through the two whole encodes nearest the
   * last one once there are two, on the preview's curve moved by the last whole encode's offset before (or when the
   * line does not rise).
   */
  const nextFor = (aim: number, last: Point): number => {
    const others = wholes.filter((point) => point !== last).sort((a, b) => Math.abs(a.level - last.level) - Math.abs(b.level - last.level));
    const onLine = others[0] ? levelOnLine(others[0], last, aim) : null;
    return onLine ?? levelReaching(view, aim, last.score - scoreOnCurve(view, last.level), floor, levels + 1);
  };
  /** nextFor's level kept above the highest that fell short, at most the top, and not past the slider's level untried. */
  const nextLevel = (aim: number, last: Point): number => notPastSimple(Math.min(top, Math.max(fallsShort + 1, nextFor(aim, last))));

  // The first whole encode goes no lower than the preview's lowest level: below it the curve is a guess.
  let level = notPastSimple(Math.min(top, levelReaching(view, target + AIM_ABOVE, 0, Math.max(floor, view[0]!.level - 1), levels + 1)));
  while (wholes.length < maxWholeEncodes) {
    const whole = await encodeWhole(level);
    const { best } = found;
    if (level >= top && !best) return done({ level, ...whole });
    const point = wholes[wholes.length - 1]!;
    const ceiling = best ? best.level : top + 1;
    if (ceiling - fallsShort <= 1 || (best && best.score - target <= SMART_CLOSE_ENOUGH)) break;
    const next = nextLevel(target + AIM_ABOVE, point);
    if (next >= ceiling || next === level) break;
    level = next;
  }
  if (found.best) return done(found.best);
  // None reached the target: once more well above where the encodes point (never past the slider's own level untried),
  // then the slider's level if that try was below it, then the top level.
  const last = wholes[wholes.length - 1]!;
  for (const next of [nextLevel(target + RESCUE_ABOVE, last), notPastSimple(top)]) {
    if (next >= top || next <= fallsShort || wholes.some((point) => point.level === next)) continue;
    const tried = await encodeWhole(next);
    if (tried.score >= target) return done({ level: next, ...tried });
  }
  // The top level was not tried: an encode at it that fell short returned at once.
  return done({ level: top, ...(await encodeWhole(top)) });
}
