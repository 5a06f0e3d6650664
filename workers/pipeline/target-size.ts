/** The spec's bound on encodes for one target size. */
export const MAX_TARGET_ATTEMPTS = 8;

/** Where the spec's search starts. */
const START_QUALITY = 0.8;

export interface TargetSizeOptions {
  targetBytes: number;
  /** Encodes at a quality in (0, 1]. */
  encodeAt: (quality: number) => Promise<ArrayBuffer>;
  /** Distinct quality levels the encoder tells apart over (0, 1]: 100 for whole percents. */
  levels?: number;
  maxAttempts?: number;
  /** Stop once the size is within this fraction below the target. */
  tolerance?: number;
}

export interface TargetSizeResult {
  bytes: ArrayBuffer;
  quality: number;
  attempts: number;
}

/**
 * Bisection on quality toward a byte budget, as the spec says: start at 0.8, at most 8 encodes, stop within 5%
 * below the target. It bisects the encoder's own quality levels, so no attempt repeats an earlier one, and it
 * stops early once two neighbouring levels bracket the target. Never returns a result over the target; null
 * when no attempt fitted.
 */
export async function searchTargetSize({
  targetBytes,
  encodeAt,
  levels = 100,
  maxAttempts = MAX_TARGET_ATTEMPTS,
  tolerance = 0.05,
}: TargetSizeOptions): Promise<TargetSizeResult | null> {
  let fits = 0; // highest level known to fit (0: none yet)
  let tooBig = levels + 1; // lowest level known to be too big
  let level = Math.min(levels, Math.max(1, Math.round(START_QUALITY * levels)));
  let best: TargetSizeResult | null = null;
  let attempts = 0;
  while (attempts < maxAttempts) {
    attempts++;
    const quality = level / levels;
    const bytes = await encodeAt(quality);
    if (bytes.byteLength <= targetBytes) {
      if (!best || bytes.byteLength > best.bytes.byteLength) best = { bytes, quality, attempts };
      if (bytes.byteLength >= targetBytes * (1 - tolerance)) break;
      fits = level;
    } else {
      tooBig = level;
    }
    level = Math.floor((fits + tooBig) / 2);
    if (level <= fits || level >= tooBig) break;
  }
  return best ? { ...best, attempts } : null;
}
