import type { OutputLook, LookSource } from '../../core/contract.ts';
import type { Rect } from '../../core/geometry.ts';
import { choosesQualityByLook, judgesOutput, smartTarget, LOOK_TILE, lookTiles } from '../../core/look.ts';
import { CONVERSION_ERRORS } from '../../core/messages.ts';
import type { Codec } from '../../wasm/index.ts';
import { encodeImage } from './canvas-encoder.ts';
import { encodeOptions, encoderQuality, STAGE_END, type EncodeRequest, type ProgressReporter } from './job.ts';
import { lookAt, NOT_JUDGED, scoreOf } from './judge.ts';
import { lookView } from './look.ts';
import { halveSize } from './pixels.ts';
import type { RawImage } from '../../core/raw-image.ts';
import { SMART_WHOLE_ENCODES, searchSmartQuality } from './smart-quality.ts';
import { MAX_TARGET_ATTEMPTS, searchTargetSize } from './target-size.ts';

/** How the pixel routes encode an upright, transformed image: at the slider's quality, to a target size, or by look. */
export type PixelEncoding = 'quality' | 'target-size' | 'smart';

export interface EncodedPixels {
  bytes: ArrayBuffer;
  encodes: number;
  look: OutputLook | null;
  lookSource: LookSource | null;
}

/**
 * What Smart compression's search encodes and judges: the source's view (its tiles) and the whole image's encode at
 * a quality, and the cheap predictor's (the view itself, or the image at half size: FormatInfo.quality.lookPredictor)
 * view and encode. From pixels (encodeByLook) or from a bitmap painted once (routes/smart-bitmap.ts).
 */
export interface LookSearch {
  sourceView: RawImage;
  tiles: Rect[];
  encodeWhole(quality: number): Promise<ArrayBuffer>;
  previewView: RawImage;
  previewTiles: Rect[];
  encodePreview(quality: number): Promise<ArrayBuffer>;
}

/**
 * What the search encodes to guess a level's look: the image itself where it is no larger than its view, else what the
 * format asks for (FormatInfo.quality.lookPredictor): the image at half size, or the view.
 */
export type Predictor = 'image' | 'half' | 'view';
export const predictorFor = (output: Codec, tiles: readonly Rect[]): Predictor => (tiles.length === 1 ? 'image' : output.format.quality?.lookPredictor === 'half' ? 'half' : 'view');

/**
 * Smart compression's search (workers/pipeline/smart-quality.ts): the lowest quality whose output reaches the
 * compression level's score, found with encodes of the predictor and checked on encodes of the whole image.
 */
export async function searchByLook(search: LookSearch, output: Codec, request: EncodeRequest, report: ProgressReporter): Promise<{ bytes: ArrayBuffer; encodes: number; look: OutputLook }> {
  const levels = output.format.quality?.levels ?? 100;
  // Never a lossless file by the back door: the search's top is a level under the slider's 100%, where JPEG XL and a
  // browser's WebP (Chromium's, WebKit's canvas) write lossless files. A grainy 20 MP wallpaper came out 23 times the
  // bytes of quality 80 there; for the formats that stay lossy, 99.9% or 99% is as good as 100%.
  const topLevel = levels - 1;
  const span = STAGE_END.encode - STAGE_END.transform;
  let wholeEncodes = 0;
  const result = await searchSmartQuality({
    target: smartTarget(request.settings.compressionLevel),
    levels,
    topLevel,
    // The simple choice, the slider's own quality: where it reaches the target, the answer is at most it.
    simpleLevel: Math.round(encoderQuality(request.settings) * levels),
    viewScoreAt: async (level) => scoreOf(search.previewView, await search.encodePreview(level / levels), output, search.previewTiles),
    wholeAt: async (level) => {
      wholeEncodes++;
      report({ percent: STAGE_END.transform + (span * Math.min(wholeEncodes, SMART_WHOLE_ENCODES)) / (SMART_WHOLE_ENCODES + 1), stage: { name: 'choosing', attempt: wholeEncodes } });
      const bytes = await search.encodeWhole(level / levels);
      return { output: bytes, score: await scoreOf(search.sourceView, bytes, output, search.tiles) };
    },
  });
  report({ percent: STAGE_END.encode });
  return { bytes: result.output, encodes: result.wholeEncodes + result.viewEncodes, look: { score: result.score, smartQuality: Math.round((result.level / levels) * 100) } };
}

/** Smart compression on upright, transformed pixels. */
export function encodeByLook(image: RawImage, output: Codec, request: EncodeRequest, report: ProgressReporter): Promise<{ bytes: ArrayBuffer; encodes: number; look: OutputLook }> {
  const tiles = lookTiles(image);
  const sourceView = lookView(image, tiles);
  const predictor = predictorFor(output, tiles);
  const preview = predictor === 'image' ? image : predictor === 'half' ? halveSize(image) : sourceView;
  // The half-size copy is judged on the same places at its own scale: a quarter of the view's pixels to score.
  const previewTiles = lookTiles(preview, predictor === 'half' ? LOOK_TILE / 2 : LOOK_TILE);
  const search: LookSearch = {
    sourceView,
    tiles,
    encodeWhole: (quality) => encodeImage(output, image, encodeOptions(quality, request)),
    previewView: lookView(preview, previewTiles),
    previewTiles,
    encodePreview: (quality) => encodeImage(output, preview, encodeOptions(quality, request)),
  };
  return searchByLook(search, output, request, report);
}

/** At the slider's quality, judged now or later where the output is lossy. */
async function encodeAtQuality(image: RawImage, output: Codec, request: EncodeRequest, report: ProgressReporter): Promise<EncodedPixels> {
  const bytes = await encodeImage(output, image, encodeOptions(encoderQuality(request.settings), request));
  report({ percent: STAGE_END.encode });
  if (!judgesOutput(request.settings, output.format, image)) return { bytes, encodes: 1, ...NOT_JUDGED };
  const tiles = lookTiles(image);
  return { bytes, encodes: 1, ...(await lookAt(lookView(image, tiles), tiles, bytes, output, request.judgeLater)) };
}

/** The target-size search: bytes for the target less what the metadata will add (`reservedBytes`). */
async function encodeToTargetSize(image: RawImage, output: Codec, request: EncodeRequest, reservedBytes: number, report: ProgressReporter): Promise<EncodedPixels> {
  const { settings } = request;
  const targetBytes = (settings.targetFileSize ?? 0) * 1024 - reservedBytes;
  if (!output.format.quality) {
    // A lossless format has no quality to trade: it fits or it does not.
    const bytes = await encodeImage(output, image, encodeOptions(1, request));
    if (bytes.byteLength > targetBytes) throw new Error(CONVERSION_ERRORS.targetSize);
    return { bytes, encodes: 1, ...NOT_JUDGED };
  }
  const span = STAGE_END.encode - STAGE_END.transform;
  let attempt = 0;
  const result = await searchTargetSize({
    targetBytes,
    levels: output.format.quality.levels,
    encodeAt: (quality) => {
      attempt++;
      const stage = { name: 'fitting', attempt, attempts: MAX_TARGET_ATTEMPTS, targetKb: settings.targetFileSize ?? 0 } as const;
      report({ percent: STAGE_END.transform + (span * (attempt - 1)) / MAX_TARGET_ATTEMPTS, stage });
      return encodeImage(output, image, encodeOptions(quality, request));
    },
  });
  if (!result) throw new Error(CONVERSION_ERRORS.targetSize);
  // Not judged: a target size's outputs are judged by their bytes, and a look would add a decode to up to 8 encodes.
  return { bytes: result.bytes, encodes: result.attempts, ...NOT_JUDGED };
}

/** An upright, transformed image encoded as its route asks. */
export async function encodePixels(image: RawImage, output: Codec, request: EncodeRequest, encoding: PixelEncoding, reservedBytes: number, report: ProgressReporter): Promise<EncodedPixels> {
  switch (encoding) {
    case 'smart':
      // An output too small to judge (core/look.ts MIN_JUDGED_SIDE) keeps the slider's quality.
      return choosesQualityByLook(request.settings, output.format, image) ? { ...(await encodeByLook(image, output, request, report)), lookSource: null } : encodeAtQuality(image, output, request, report);
    case 'target-size':
      return encodeToTargetSize(image, output, request, reservedBytes, report);
    case 'quality':
      return encodeAtQuality(image, output, request, report);
  }
}
