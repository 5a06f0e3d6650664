import type { ConversionProgress, ConversionSettings, ConvertRequest, JobPlan, JudgeRequest, LookSource, OutputLook, OutputSample } from '../../core/contract';
import { withUprightOrientation } from '../../core/exif';
import { sourceFormatInfo, type SourceFormat } from '../../core/formats';
import { centredPart, resolutionNeeded, rotated, turned, type Rect, type Size } from '../../core/geometry';
import { CONVERSION_ERRORS, imageTooLargeMessage, outputTooLargeMessage } from '../../core/messages';
import { SAMPLE_PIXELS } from '../../core/plan';
import { choosesQualityByLook, judgesOutput, smartTarget } from '../../core/look';
import { hasTargetSize } from '../../core/policy';
import { CODECS, SOURCE_CODECS, type Codec } from '../../wasm';
import { encodeBitmapWithCanvas } from './canvas-encoder';
import { bitmapToPixels, frameRows } from './bitmap-pixels';
import { decodeToBitmap, decodeWithWasm, oneDecodeAtATime } from './decode';
import { explainMemoryFailure } from './failures';
import { LOOK_TILE, lookTiles, lookView, lookViewOfBitmap } from './look';
import { ssimulacra2 } from '../../wasm/ssimulacra2/loader';
import { SMART_WHOLE_ENCODES, searchSmartQuality } from './smart-quality';
import type { RawImage } from './raw-image';
import { crop, halveSize } from './pixels';
import { decodeScaledBitmap } from './scaled-decode';
import { MAX_TARGET_ATTEMPTS, searchTargetSize } from './target-size';
import { changesPixels, geometryFor, transform, type Resizer } from './transform';

export type ProgressReporter = (progress: ConversionProgress) => void;

export interface EncodedImage {
  bytes: ArrayBuffer;
  mimeType: string;
  width: number;
  height: number;
  encodes: number;
  /** How it looks beside the source (core/look.ts); null where not judged (a lossless output, a target size) or judged later. */
  look: OutputLook | null;
  /** What judging it later needs (ConvertRequest.judgeLater); null where judged now, or not judged. */
  lookSource: LookSource | null;
}

/** A conversion's result: its encoded image, or (keepOriginalIfLarger) word that the source is the better file. */
export type ConversionOutcome = EncodedImage & { keptOriginal: { convertedBytes: number } | null };

/** Percent reached at the end of each stage; encoding takes the span from transform to metadata. */
const STAGE_END = { decode: 30, transform: 45, encode: 95, metadata: 99 } as const;

/**
 * Quality 0–1 for the encoders: the slider's. Smart compression chooses its own (encodeByLook), and a lossless format
 * takes none.
 */
export function encoderQuality(settings: ConversionSettings): number {
  return settings.quality / 100;
}

/** Bytes a container needs around an EXIF payload (chunk or segment headers, a WebP VP8X chunk). */
const EXIF_CONTAINER_OVERHEAD = 32;

type EncodeRequest = Pick<ConvertRequest, 'settings' | 'plan' | 'alone' | 'judgeLater'>;

/** The encoder's options for a quality (0–1), the rest as the plan and settings say. */
const encodeOptions = (quality: number, { settings, plan, alone }: EncodeRequest) => ({ quality, optimise: plan.encoder === 'wasm', thorough: settings.enableCompression, alone });

/**
 * The decoded pixels of an encoded output, as the view of `tiles` (workers/pipeline/look.ts): the browser's decoder
 * where it reads the format, the app's own (JPEG XL) where not.
 */
async function decodedView(bytes: ArrayBuffer, output: Codec, tiles: readonly Rect[]): Promise<RawImage> {
  const bitmap = await decodeToBitmap(new Blob([bytes], { type: output.format.mimeType }));
  if (bitmap) {
    try {
      return lookViewOfBitmap(bitmap, tiles, null);
    } finally {
      bitmap.close();
    }
  }
  const pixels = await decodeWithWasm(bytes, SOURCE_CODECS[output.format.id]);
  if (!pixels) throw new Error(CONVERSION_ERRORS.compression);
  return lookView(pixels, tiles);
}

/** SSIMULACRA2 of an encoded output's view against the source's view (the same tiles of each). */
const scoreOf = async (sourceView: RawImage, bytes: ArrayBuffer, output: Codec, tiles: readonly Rect[]): Promise<number> =>
  (await ssimulacra2())(sourceView, await decodedView(bytes, output, tiles));

/**
 * Smart compression on an image: the lowest quality whose output reaches the compression level's score
 * (workers/pipeline/smart-quality.ts), found with encodes of the image's view and checked on encodes of the image.
 */
async function encodeByLook(image: RawImage, output: Codec, request: EncodeRequest, report: ProgressReporter): Promise<{ bytes: ArrayBuffer; encodes: number; look: OutputLook }> {
  const levels = output.format.quality?.levels ?? 100;
  const tiles = lookTiles(image);
  const sourceView = lookView(image, tiles);
  // What is encoded to guess a level's look (FormatInfo.quality.lookPredictor): the view itself, or the image at
  // half size; an image no larger than its view is its own guess.
  const halved = tiles.length > 1 && output.format.quality?.lookPredictor === 'half';
  const preview = tiles.length === 1 ? image : halved ? halveSize(image) : sourceView;
  // The half-size copy is judged on the same places at its own scale: a quarter of the view's pixels to score.
  const previewTiles = lookTiles(preview, halved ? LOOK_TILE / 2 : LOOK_TILE);
  const previewView = lookView(preview, previewTiles);
  const span = STAGE_END.encode - STAGE_END.transform;
  let wholeEncodes = 0;
  const result = await searchSmartQuality({
    target: smartTarget(request.settings.compressionLevel),
    levels,
    viewScoreAt: async (level) => scoreOf(previewView, await output.encode(preview, encodeOptions(level / levels, request)), output, previewTiles),
    wholeAt: async (level) => {
      wholeEncodes++;
      report({ percent: STAGE_END.transform + (span * wholeEncodes) / (SMART_WHOLE_ENCODES + 1), stage: { name: 'choosing', attempt: wholeEncodes } });
      const bytes = await output.encode(image, encodeOptions(level / levels, request));
      return { output: bytes, score: await scoreOf(sourceView, bytes, output, tiles) };
    },
  });
  report({ percent: STAGE_END.encode });
  return { bytes: result.output, encodes: result.wholeEncodes + result.viewEncodes, look: { score: result.score, smartQuality: Math.round((result.level / levels) * 100) } };
}

/** An output not judged, now or later: a lossless one, a target size's. */
const NOT_JUDGED = { look: null, lookSource: null } as const;

/**
 * The output's look at a fixed quality: its view decoded and judged against the source's now, or (judgeLater) the
 * source's view handed back for the page to have it judged once the batch is done.
 */
async function lookAt(sourceView: RawImage, tiles: Rect[], bytes: ArrayBuffer, output: Codec, judgeLater: boolean): Promise<Pick<EncodedImage, 'look' | 'lookSource'>> {
  if (judgeLater) return { look: null, lookSource: { view: sourceView, tiles } };
  return { look: { score: await scoreOf(sourceView, bytes, output, tiles), smartQuality: null }, lookSource: null };
}

/** How an output looks beside its source's view, judged after its conversion (ConvertRequest.judgeLater). */
export async function judgeOutput({ output, format, source }: JudgeRequest): Promise<OutputLook> {
  try {
    return { score: await scoreOf(source.view, await output.arrayBuffer(), CODECS[format], source.tiles), smartQuality: null };
  } catch (error) {
    throw explainMemoryFailure(error);
  }
}

async function encodeForSettings(
  image: RawImage,
  output: Codec,
  request: EncodeRequest,
  reservedBytes: number,
  report: ProgressReporter,
): Promise<{ bytes: ArrayBuffer; encodes: number; look: OutputLook | null; lookSource: LookSource | null }> {
  const { settings } = request;
  if (choosesQualityByLook(settings, output.format)) return { ...(await encodeByLook(image, output, request, report)), lookSource: null };
  if (!hasTargetSize(settings)) {
    const bytes = await output.encode(image, encodeOptions(encoderQuality(settings), request));
    report({ percent: STAGE_END.encode });
    if (!judgesOutput(settings, output.format)) return { bytes, encodes: 1, ...NOT_JUDGED };
    const tiles = lookTiles(image);
    return { bytes, encodes: 1, ...(await lookAt(lookView(image, tiles), tiles, bytes, output, request.judgeLater)) };
  }
  const targetBytes = settings.targetFileSize * 1024 - reservedBytes;
  if (!output.format.quality) {
    // A lossless format has no quality to trade: it fits or it does not.
    const bytes = await output.encode(image, encodeOptions(1, request));
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
      const stage = { name: 'fitting', attempt, attempts: MAX_TARGET_ATTEMPTS, targetKb: settings.targetFileSize } as const;
      report({ percent: STAGE_END.transform + (span * (attempt - 1)) / MAX_TARGET_ATTEMPTS, stage });
      return output.encode(image, encodeOptions(quality, request));
    },
  });
  if (!result) throw new Error(CONVERSION_ERRORS.targetSize);
  // Not judged: a target size's outputs are judged by their bytes, and a look would add a decode to up to 8 encodes.
  return { bytes: result.bytes, encodes: result.attempts, ...NOT_JUDGED };
}

/** Whether a conversion flattens its pixels onto the background colour: an output without alpha from a source that may have some. */
const flattens = (output: Codec, source: SourceFormat): boolean => !output.format.alpha && sourceFormatInfo(source).alpha;

/**
 * The browser's encoder on the decoded bitmap itself: the same output as the pixel path without reading 48 MB of
 * pixels out of a 12 MP bitmap and writing them back. Null when the browser does not encode the type. An output
 * without alpha is flattened onto the background colour unless the source has no transparency either.
 */
async function encodeUnchangedBitmap(bitmap: ImageBitmap, source: SourceFormat, output: Codec, settings: ConversionSettings, judgeLater: boolean): Promise<EncodedImage | null> {
  const { format } = output;
  const { width, height } = bitmap;
  const background = flattens(output, source) ? settings.backgroundColor : null;
  // The source as the output frames it (flattened where the output is), read before the encoder takes the bitmap.
  const tiles = lookTiles(bitmap);
  const sourceView = judgesOutput(settings, format) ? lookViewOfBitmap(bitmap, tiles, background) : null;
  const bytes = await encodeBitmapWithCanvas(bitmap, format.mimeType, encoderQuality(settings), background);
  if (!bytes) return null;
  bitmap.close();
  const look = sourceView ? await lookAt(sourceView, tiles, bytes, output, judgeLater) : NOT_JUDGED;
  return { bytes, mimeType: format.mimeType, width, height, encodes: 1, ...look };
}

/**
 * The size-optimising encoder on the decoded bitmap's rows, read out of it a strip at a time as the encoder takes
 * them (frameRows): a plain re-encode's pixels need no copy of their own when the encoder takes rows (jpegli). Null,
 * the bitmap still open, where the rows are not read so (an engine that failed the check, a frame with alpha or
 * stored turned): the pixel path then reads it whole.
 */
async function encodeBitmapRows(bitmap: ImageBitmap, output: Codec, request: EncodeRequest, report: ProgressReporter): Promise<EncodedImage | null> {
  if (!output.encodeRows) return null;
  const rows = await frameRows(bitmap);
  if (!rows) return null;
  const { settings } = request;
  const { width, height } = rows;
  const tiles = lookTiles(bitmap);
  let bytes: ArrayBuffer;
  let sourceView: RawImage | null;
  try {
    // An opaque frame (frameRows): nothing to flatten, in the view or the output.
    sourceView = judgesOutput(settings, output.format) ? lookViewOfBitmap(bitmap, tiles, null) : null;
    bytes = await output.encodeRows(rows, encodeOptions(encoderQuality(settings), request));
  } finally {
    rows.close();
    bitmap.close();
  }
  report({ percent: STAGE_END.encode });
  const look = sourceView ? await lookAt(sourceView, tiles, bytes, output, request.judgeLater) : NOT_JUDGED;
  return { bytes, mimeType: output.format.mimeType, width, height, encodes: 1, ...look };
}

/** Refuses an output size (a resize, a custom size) over the limit before any pixel is resampled. */
function checkOutputSize(upright: Size, settings: ConversionSettings, plan: JobPlan, pixelLimit: number): void {
  const { width, height } = geometryFor(rotated(upright, settings.rotation), settings, plan);
  if (width * height > pixelLimit) throw new Error(outputTooLargeMessage(width * height, pixelLimit));
}

/** Decoded pixels, and the upright source's full size when they were decoded smaller (see TransformOptions.fullSize). */
interface Decoded {
  pixels: RawImage;
  fullSize: Size | null;
}

/** transform → encode (or the target-size search), on decoded pixels. */
async function convertPixels(
  decoded: Decoded | null,
  output: Codec,
  request: EncodeRequest,
  resize: Resizer,
  reservedBytes: number,
  report: ProgressReporter,
): Promise<EncodedImage> {
  const { settings, plan } = request;
  if (!decoded) throw new Error(CONVERSION_ERRORS.load);
  report({ percent: STAGE_END.decode, stage: { name: 'transforming' } });
  const image = await transform(decoded.pixels, settings, { resize, flatten: flattens(output, plan.source.format), fullSize: decoded.fullSize, plan });
  report({ percent: STAGE_END.transform, stage: { name: 'encoding' } });
  const { bytes, encodes, look, lookSource } = await encodeForSettings(image, output, request, reservedBytes, report);
  return { bytes, mimeType: output.format.mimeType, width: image.width, height: image.height, encodes, look, lookSource };
}

/**
 * How much more than the output's resolution a scaled decode keeps, so Lanczos3 still does a real part of the
 * downscale: decoded at exactly the output's resolution, the DCT's softer scaling showed (docs/decisions).
 */
const SCALED_DECODE_HEADROOM = 1.5;

/**
 * The bitmap a conversion that changes pixels starts from: decoded smaller in the browser's decoder when the output
 * needs well under the source's resolution and the format allows it (a 12 MP photo for "Web 1920 wide" decodes at
 * three quarters of its width, 56% of the pixels), whole otherwise. With the full upright size when smaller.
 */
async function decodeForOutput(file: Blob, { source }: JobPlan, settings: ConversionSettings): Promise<{ bitmap: ImageBitmap; fullSize: Size | null } | null> {
  const format = sourceFormatInfo(source.format);
  const stored = source.size;
  const upright = source.turned ? turned(stored) : stored;
  const scale = Math.min(1, resolutionNeeded(upright, settings) * SCALED_DECODE_HEADROOM);
  if (format.scaledDecode && scale < 7 / 8) {
    const bitmap = await decodeScaledBitmap(file, format.mimeType, stored, scale);
    if (bitmap) {
      const decodedTurned = stored.width >= stored.height !== bitmap.width >= bitmap.height;
      const fullSize = decodedTurned ? turned(stored) : stored;
      // The header's orientation decided the scale; the decoder's is the one that counts. Too small: decode whole.
      if (bitmap.width >= Math.floor(fullSize.width * resolutionNeeded(fullSize, settings))) return { bitmap, fullSize };
      bitmap.close();
    }
  }
  const bitmap = await decodeToBitmap(file);
  return bitmap && { bitmap, fullSize: null };
}

/** Decodes into pixels, refusing an output over the limit before the pixels are read out. */
async function decodePixels(
  { file, settings, plan, pixelLimit }: ConvertRequest,
  sourceBytes: SourceBytes,
  decodedBitmap: ImageBitmap | null,
): Promise<Decoded | null> {
  const decoded = decodedBitmap ? { bitmap: decodedBitmap, fullSize: null } : await decodeForOutput(file, plan, settings);
  if (decoded) {
    try {
      checkOutputSize(decoded.fullSize ?? decoded.bitmap, settings, plan, pixelLimit);
    } catch (error) {
      decoded.bitmap.close();
      throw error;
    }
    return { pixels: await bitmapToPixels(decoded.bitmap), fullSize: decoded.fullSize };
  }
  const pixels = await decodeWithWasm(await sourceBytes.read(), SOURCE_CODECS[plan.source.format]);
  if (pixels) checkOutputSize(pixels, settings, plan, pixelLimit);
  return pixels && { pixels, fullSize: null };
}

/** Reading out the pixels is the memory-heavy step (bitmap, canvas and ImageData): on a small device workers take turns. */
function decodeInTurn<T>({ decodeAlone }: ConvertRequest, decodeStep: () => Promise<T>): Promise<T> {
  return decodeAlone ? oneDecodeAtATime(decodeStep) : decodeStep();
}

/**
 * The source file's bytes, read whole at most once per conversion and only when something needs them (its EXIF,
 * whether it carries metadata, a WASM decode), then let go before the pixels are held.
 */
class SourceBytes {
  private bytes: Promise<ArrayBuffer> | null = null;
  constructor(private readonly file: Blob) {}
  read(): Promise<ArrayBuffer> {
    return (this.bytes ??= this.file.arrayBuffer());
  }
  release(): void {
    this.bytes = null;
  }
}

/**
 * decode → transform → encode (or the target-size search) → metadata, on the plan the page made from the source's
 * header (the worker reads no header). A source or output over the pixel limit, and an allocation that fails on the
 * way, end as the visitor's message, never as a crash.
 */
export async function convertImage(request: ConvertRequest, resize: Resizer, report: ProgressReporter): Promise<ConversionOutcome> {
  try {
    return await convertWithinLimits(request, resize, report);
  } catch (error) {
    throw explainMemoryFailure(error);
  }
}

async function convertWithinLimits(request: ConvertRequest, resize: Resizer, report: ProgressReporter): Promise<ConversionOutcome> {
  const { file, settings, plan, pixelLimit } = request;
  const { format, size } = plan.source;
  if (size.width * size.height > pixelLimit) throw new Error(imageTooLargeMessage(size.width * size.height, pixelLimit));
  report({ percent: 5, stage: { name: 'decoding' } });
  const source = SOURCE_CODECS[format];
  const output = CODECS[settings.outputFormat];
  const sourceBytes = new SourceBytes(file);

  // What the source's own bytes tell, read before decoding so the bytes can go before the pixels come.
  const keepsExif = !settings.stripMetadata && output.format.exif && output.metadata.writeExif !== undefined;
  // A copy: a view would keep the whole file alive.
  const exif = keepsExif ? (source.metadata.readExif(new Uint8Array(await sourceBytes.read()))?.slice() ?? null) : null;
  const reservedBytes = exif ? exif.length + EXIF_CONTAINER_OVERHEAD : 0;
  // A plain re-encode with the browser's encoder needs only its bitmap; everything else needs the pixels. Whether the
  // pixels change can depend on which way up the source is, which only decoding tells: either way up must agree.
  const unchangedEitherWay = !changesPixels(size, settings) && !changesPixels(turned(size), settings);
  const mayKeepSource = settings.keepOriginalIfLarger && format === settings.outputFormat && unchangedEitherWay;
  const sourceHasMetadata = mayKeepSource && settings.stripMetadata && source.metadata.hasMetadata(new Uint8Array(await sourceBytes.read()));

  // Not for a target size: its search encodes the pixels again and again.
  // Nor for Smart compression: its search encodes a view of them.
  const searches = hasTargetSize(settings) || choosesQualityByLook(settings, output.format);
  // A plain re-encode starts from the bitmap: the browser's encoder takes it as it is, and a WASM encoder that takes
  // rows reads them out of it as it goes. Its decode takes its turn as the pixel path's does.
  const plainReEncode = !searches && unchangedEitherWay;
  const fromRows = plainReEncode && plan.encoder === 'wasm' && output.encodeRows !== undefined;
  const bitmap = plainReEncode && plan.encoder === 'browser' ? await decodeToBitmap(file) : fromRows ? await decodeInTurn(request, () => decodeToBitmap(file)) : null;
  if (bitmap) report({ percent: STAGE_END.decode, stage: { name: 'encoding' } });
  const encodeBitmap = (decoded: ImageBitmap) =>
    plan.encoder === 'browser' ? encodeUnchangedBitmap(decoded, format, output, settings, request.judgeLater) : encodeBitmapRows(decoded, output, request, report);
  const encoded =
    (bitmap && !changesPixels(bitmap, settings) && (await encodeBitmap(bitmap))) ||
    (await convertPixels(
      await decodeInTurn(request, () => decodePixels(request, sourceBytes, bitmap)).finally(() => sourceBytes.release()),
      output,
      request,
      resize,
      reservedBytes,
      report,
    ));

  if (exif) report({ percent: STAGE_END.encode, stage: { name: 'metadata' } });
  const bytes = exif && output.metadata.writeExif ? output.metadata.writeExif(new Uint8Array(encoded.bytes), withUprightOrientation(exif), encoded).slice().buffer : encoded.bytes;
  report({ percent: STAGE_END.metadata });
  const keepSource = mayKeepSource && bytes.byteLength >= file.size && !sourceHasMetadata;
  return { ...encoded, bytes, keptOriginal: keepSource ? { convertedBytes: bytes.byteLength } : null };
}

/**
 * What a conversion's output would weigh (OutputSample): decoded and transformed as the conversion would be, then a
 * centred part of at most SAMPLE_PIXELS encoded with the settings. Metadata and "keep the original" are left out:
 * the estimate is of the encoder's output.
 */
export async function sampleOutput(request: ConvertRequest, resize: Resizer): Promise<OutputSample> {
  try {
    const { settings, plan } = request;
    const output = CODECS[settings.outputFormat];
    const sourceBytes = new SourceBytes(request.file);
    const decoded = await decodeInTurn(request, () => decodePixels(request, sourceBytes, null)).finally(() => sourceBytes.release());
    if (!decoded) throw new Error(CONVERSION_ERRORS.load);
    const image = await transform(decoded.pixels, settings, { resize, flatten: flattens(output, plan.source.format), fullSize: decoded.fullSize, plan });
    const part = crop(image, centredPart(image, SAMPLE_PIXELS));
    // With Smart compression, the part is searched as a whole image would be: its bytes at the quality found for it.
    const bytes = choosesQualityByLook(settings, output.format) ? (await encodeByLook(part, output, request, () => undefined)).bytes : await output.encode(part, encodeOptions(encoderQuality(settings), request));
    return { bytes: bytes.byteLength, pixels: part.width * part.height, outputPixels: image.width * image.height };
  } catch (error) {
    throw explainMemoryFailure(error);
  }
}
