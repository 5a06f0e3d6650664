import { CONVERSION_ERRORS, imageTooLargeMessage, outputTooLargeMessage, type ConversionProgress, type ConversionSettings, type ConvertRequest } from '../contract';
import { formatInfo, type FormatInfo, type ImageFormat } from '../formats';
import { bitmapToPixels, decodeToBitmap, decodeWithWasm, oneDecodeAtATime } from './decode';
import { ENCODERS, type Encoder } from './encoders';
import { encodeBitmapWithCanvas } from './encoders/canvas';
import { explainMemoryFailure } from './failures';
import { planGeometry } from './geometry';
import { readExif, withUprightOrientation, writeExif } from './metadata';
import { probeImage } from './probe';
import type { RawImage } from './raw-image';
import { searchTargetSize } from './target-size';
import { changesPixels, transform, type Resizer } from './transform';

export type ProgressReporter = (progress: ConversionProgress) => void;

export interface EncodedImage {
  bytes: ArrayBuffer;
  mimeType: string;
  width: number;
  height: number;
  encodes: number;
}

/** Percent reached at the end of each stage; encoding takes the span from transform to metadata. */
const STAGE_END = { decode: 30, transform: 45, encode: 95, metadata: 99 } as const;

/** Quality 0–1 for the encoders: the slider, or the compression level when smart compression is on. */
export function encoderQuality(settings: ConversionSettings): number {
  return (settings.autoCompress ? settings.compressionLevel : settings.quality) / 100;
}

/** Bytes a container needs around an EXIF payload (chunk or segment headers, a WebP VP8X chunk). */
const EXIF_CONTAINER_OVERHEAD = 32;

/** Whether the settings ask for a byte budget. */
function hasTargetSize(settings: ConversionSettings): settings is ConversionSettings & { targetFileSize: number } {
  return settings.enableTargetSize && settings.targetFileSize !== null && settings.targetFileSize > 0;
}

/** What a conversion writes: the registry's entry for the output format and its encoder. */
interface Output {
  format: FormatInfo;
  encoder: Encoder;
}

async function encodeForSettings(
  image: RawImage,
  { format, encoder }: Output,
  settings: ConversionSettings,
  reservedBytes: number,
  report: ProgressReporter,
): Promise<{ bytes: ArrayBuffer; encodes: number }> {
  const optimise = settings.enableCompression;
  if (!hasTargetSize(settings)) {
    const bytes = await encoder.encode(image, { quality: encoderQuality(settings), optimise });
    report({ percent: STAGE_END.encode });
    return { bytes, encodes: 1 };
  }
  const targetBytes = settings.targetFileSize * 1024 - reservedBytes;
  if (!format.quality) {
    // A lossless format has no quality to trade: it fits or it does not.
    const bytes = await encoder.encode(image, { quality: 1, optimise });
    if (bytes.byteLength > targetBytes) throw new Error(CONVERSION_ERRORS.targetSize);
    return { bytes, encodes: 1 };
  }
  const span = STAGE_END.encode - STAGE_END.transform;
  const result = await searchTargetSize({
    targetBytes,
    levels: format.quality.levels,
    encodeAt: (quality) => encoder.encode(image, { quality, optimise }),
    onAttempt: (attempt) => report({ percent: STAGE_END.transform + (span * attempt) / 8 }),
  });
  if (!result) throw new Error(CONVERSION_ERRORS.targetSize);
  return { bytes: result.bytes, encodes: result.attempts };
}

/** Whether the settings choose the browser's encoder for a single encode (with the pixels unchanged, see changesPixels). */
function canEncodeBitmapDirectly(format: FormatInfo, settings: ConversionSettings): boolean {
  return !settings.enableCompression && format.canvasEncoder && !hasTargetSize(settings);
}

/**
 * The browser's encoder on the decoded bitmap itself: the same output as the pixel path without reading 48 MB of
 * pixels out of a 12 MP bitmap and writing them back. Null when the browser does not encode the type. An output
 * without alpha is flattened onto the background colour unless the source has no transparency either.
 */
async function encodeUnchangedBitmap(bitmap: ImageBitmap, source: ImageFormat, format: FormatInfo, settings: ConversionSettings): Promise<EncodedImage | null> {
  const { width, height } = bitmap;
  const background = !format.alpha && formatInfo(source).alpha ? settings.backgroundColor : null;
  const bytes = await encodeBitmapWithCanvas(bitmap, format.mimeType, encoderQuality(settings), background);
  if (!bytes) return null;
  bitmap.close();
  return { bytes, mimeType: format.mimeType, width, height, encodes: 1 };
}

/** Refuses an output size (a resize, a custom size) over the limit before any pixel is resampled. */
function checkOutputSize(decoded: { width: number; height: number }, settings: ConversionSettings, pixelLimit: number): void {
  const quarterTurn = settings.rotation % 180 !== 0;
  const rotated = quarterTurn ? { width: decoded.height, height: decoded.width } : decoded;
  const plan = planGeometry(rotated, settings);
  const pixels = plan.width * plan.height;
  if (pixels > pixelLimit) throw new Error(outputTooLargeMessage(pixels, pixelLimit));
}

/** transform → encode (or the target-size search), on decoded pixels. */
async function convertPixels(
  decoded: RawImage | null,
  output: Output,
  settings: ConversionSettings,
  resize: Resizer,
  reservedBytes: number,
  report: ProgressReporter,
): Promise<EncodedImage> {
  if (!decoded) throw new Error(CONVERSION_ERRORS.load);
  report({ percent: STAGE_END.decode });
  const image = await transform(decoded, settings, { resize, keepAlpha: output.format.alpha });
  report({ percent: STAGE_END.transform });
  const { bytes, encodes } = await encodeForSettings(image, output, settings, reservedBytes, report);
  return { bytes, mimeType: output.format.mimeType, width: image.width, height: image.height, encodes };
}

/**
 * probe → decode → transform → encode (or the target-size search) → metadata. A source or output over the pixel
 * limit, and an allocation that fails on the way, end as the visitor's message, never as a crash.
 */
export async function convertImage(request: ConvertRequest, resize: Resizer, report: ProgressReporter): Promise<EncodedImage> {
  try {
    return await convertWithinLimits(request, resize, report);
  } catch (error) {
    throw explainMemoryFailure(error);
  }
}

async function convertWithinLimits({ file, settings, pixelLimit }: ConvertRequest, resize: Resizer, report: ProgressReporter): Promise<EncodedImage> {
  const header = await probeImage(file);
  if (!header?.size) throw new Error(CONVERSION_ERRORS.load);
  const { format, size } = header;
  if (size.width * size.height > pixelLimit) throw new Error(imageTooLargeMessage(size.width * size.height, pixelLimit));
  report({ percent: 5 });
  const output: Output = { format: formatInfo(settings.outputFormat), encoder: ENCODERS[settings.outputFormat] };
  const exif = settings.stripMetadata || !output.format.exif ? null : readExif(new Uint8Array(await file.arrayBuffer()), format);
  const reservedBytes = exif ? exif.length + EXIF_CONTAINER_OVERHEAD : 0;

  // A plain re-encode with the browser's encoder needs only its bitmap; everything else needs the pixels.
  const bitmap = canEncodeBitmapDirectly(output.format, settings) ? await decodeToBitmap(file) : null;
  const encoded =
    (bitmap && !changesPixels(bitmap, settings) && (await encodeUnchangedBitmap(bitmap, format, output.format, settings))) ||
    (await convertPixels(
      // Reading out the pixels is the memory-heavy step (bitmap, canvas and ImageData), so workers take turns.
      await oneDecodeAtATime(async () => {
        const decoded = bitmap ?? (await decodeToBitmap(file));
        if (decoded) {
          try {
            checkOutputSize(decoded, settings, pixelLimit);
          } catch (error) {
            decoded.close();
            throw error;
          }
          return bitmapToPixels(decoded);
        }
        const pixels = await decodeWithWasm(file, format);
        if (pixels) checkOutputSize(pixels, settings, pixelLimit);
        return pixels;
      }),
      output,
      settings,
      resize,
      reservedBytes,
      report,
    ));

  const bytes = exif ? writeExif(new Uint8Array(encoded.bytes), settings.outputFormat, withUprightOrientation(exif), encoded).slice().buffer : encoded.bytes;
  report({ percent: STAGE_END.metadata });
  return { ...encoded, bytes };
}
