import { CONVERSION_ERRORS, type ConversionProgress, type ConversionSettings, type ConvertRequest } from '../contract';
import { decode } from './decode';
import { ENCODERS, type Encoder } from './encoders';
import { readExif, withUprightOrientation, writeExif } from './metadata';
import { sniffImageFormat } from './probe';
import type { RawImage } from './raw-image';
import { searchTargetSize } from './target-size';
import { transform, type Resizer } from './transform';

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

async function encodeForSettings(
  image: RawImage,
  encoder: Encoder,
  settings: ConversionSettings,
  reservedBytes: number,
  report: ProgressReporter,
): Promise<{ bytes: ArrayBuffer; encodes: number }> {
  const optimise = settings.enableCompression;
  if (!settings.enableTargetSize || !settings.targetFileSize) {
    const bytes = await encoder.encode(image, { quality: encoderQuality(settings), optimise });
    report({ stage: 'encode', percent: STAGE_END.encode });
    return { bytes, encodes: 1 };
  }
  const targetBytes = settings.targetFileSize * 1024 - reservedBytes;
  if (!encoder.lossy) {
    // A lossless format has no quality to trade: it fits or it does not.
    const bytes = await encoder.encode(image, { quality: 1, optimise });
    if (bytes.byteLength > targetBytes) throw new Error(CONVERSION_ERRORS.targetSize);
    return { bytes, encodes: 1 };
  }
  const span = STAGE_END.encode - STAGE_END.transform;
  const result = await searchTargetSize({
    targetBytes,
    levels: encoder.qualityLevels,
    encodeAt: (quality) => encoder.encode(image, { quality, optimise }),
    onAttempt: (attempt) => report({ stage: 'encode', percent: STAGE_END.transform + (span * attempt) / 8 }),
  });
  if (!result) throw new Error(CONVERSION_ERRORS.targetSize);
  return { bytes: result.bytes, encodes: result.attempts };
}

/** probe → decode → transform → encode (or the target-size search) → metadata. */
export async function convertImage(request: ConvertRequest, resize: Resizer, report: ProgressReporter): Promise<EncodedImage> {
  const { file, settings } = request;
  const format = await sniffImageFormat(file);
  if (!format) throw new Error(CONVERSION_ERRORS.load);
  report({ stage: 'decode', percent: 5 });
  const decoded = await decode(file, format);
  report({ stage: 'decode', percent: STAGE_END.decode });

  const encoder = ENCODERS[settings.outputFormat];
  const image = await transform(decoded, settings, { resize, keepAlpha: settings.outputFormat !== 'jpeg' });
  report({ stage: 'transform', percent: STAGE_END.transform });

  const exif = settings.stripMetadata || settings.outputFormat === 'avif' ? null : readExif(new Uint8Array(await file.arrayBuffer()), format);
  const encoded = await encodeForSettings(image, encoder, settings, exif ? exif.length + EXIF_CONTAINER_OVERHEAD : 0, report);
  const bytes = exif
    ? writeExif(new Uint8Array(encoded.bytes), settings.outputFormat, withUprightOrientation(exif), image).slice().buffer
    : encoded.bytes;
  report({ stage: 'metadata', percent: STAGE_END.metadata });
  return { bytes, mimeType: encoder.mimeType, width: image.width, height: image.height, encodes: encoded.encodes };
}
