import type { ImageFormat, SourceFormat } from './formats.ts';

/**
 * Why an output came out larger than its source, as its card says it: the visitor who sees "+396% larger" should
 * know whether it is the settings (more pixels, a lossless file, a high quality) or the formats (the source's format
 * stores this picture in fewer bytes), and so what to change.
 */
export type GrowthReason =
  /** It has more pixels than the source: a resize or a preset made it bigger. */
  | { kind: 'more-pixels' }
  /** The output stores every pixel exactly (PNG; JPEG XL at 100 %; a WebP the browser wrote lossless). */
  | { kind: 'lossless'; output: ImageFormat }
  /** The source's format is a newer, denser one than the output's: HEIC, AVIF or JPEG XL to JPG or WebP, WebP to JPG. */
  | { kind: 'denser-source'; source: SourceFormat; output: ImageFormat }
  /** A lossless source of few colours or flat areas (PNG, GIF), which a lossy encoder spends more bytes on. */
  | { kind: 'flat-source'; source: SourceFormat }
  /** A target size above the source's own: the search spends the bytes it is given. */
  | { kind: 'target-size' }
  /** The output keeps more than the source kept: a quality above the one the source was saved at. */
  | { kind: 'higher-quality'; quality: number; smart: boolean };

export interface GrowthFacts {
  source: SourceFormat;
  sourcePixels: number;
  output: ImageFormat;
  outputPixels: number;
  /** Whether the output stores its pixels exactly. */
  lossless: boolean;
  /** The encoder's quality, 0–100, or null where the format takes none. */
  quality: number | null;
  /** The quality was chosen by Smart compression. */
  smart: boolean;
  /** The quality was searched for a target size. */
  targetSize: boolean;
}

/**
 * How many bytes a format needs for the same photograph, from the most to the fewest (the corpus's bytes at an equal
 * SSIMULACRA2 score, docs/decisions/perceptual-score.md): JPEG, then WebP, then AVIF, HEIC and JPEG XL. A source only
 * lossless formats write (PNG, GIF, BMP, TIFF) has no place here.
 */
const PHOTO_DENSITY: Partial<Record<SourceFormat, number>> = { jpeg: 1, webp: 2, avif: 3, heic: 3, jxl: 3 };
/** Lossless sources that store few colours or flat areas in few bytes (BMP and TIFF store them raw, as a rule). */
const FLAT_SOURCES: readonly SourceFormat[] = ['png', 'gif'];

/**
 * A quality the visitor chose high on purpose: there the quality is what to change, whatever the formats (a photo
 * saved at 80 and written again at 95 grows in any format).
 */
const HIGH_QUALITY = 90;

/**
 * Why an output larger than its source is larger: the first of these that holds, from what the visitor can change
 * first (the size, a lossless file, a high quality) to what follows from the formats.
 */
export function whyLarger(facts: GrowthFacts): GrowthReason {
  if (facts.outputPixels > facts.sourcePixels) return { kind: 'more-pixels' };
  if (facts.lossless) return { kind: 'lossless', output: facts.output };
  if (facts.targetSize) return { kind: 'target-size' };
  const higherQuality: GrowthReason = { kind: 'higher-quality', quality: facts.quality ?? 100, smart: facts.smart };
  if (facts.quality !== null && facts.quality >= HIGH_QUALITY) return higherQuality;
  const sourceDensity = PHOTO_DENSITY[facts.source];
  const outputDensity = PHOTO_DENSITY[facts.output];
  if (sourceDensity !== undefined && outputDensity !== undefined && sourceDensity > outputDensity) return { kind: 'denser-source', source: facts.source, output: facts.output };
  if (FLAT_SOURCES.includes(facts.source)) return { kind: 'flat-source', source: facts.source };
  return higherQuality;
}

/** What the card says after "+N% larger", with the formats' labels. */
export function growthText(reason: GrowthReason, label: (format: SourceFormat) => string): string {
  switch (reason.kind) {
    case 'more-pixels':
      return 'it has more pixels than the source';
    case 'lossless':
      return `this ${label(reason.output)} is lossless: it keeps every pixel`;
    case 'denser-source':
      return `${label(reason.source)} stores photos in fewer bytes than ${label(reason.output)}`;
    case 'target-size':
      return 'the target size is above the source\'s';
    case 'flat-source':
      return `a ${label(reason.source)}'s flat colours take fewer bytes lossless`;
    case 'higher-quality':
      return `${reason.smart ? 'Smart quality' : 'quality'} ${reason.quality} keeps more than the source did`;
  }
}
