import type { ConvertRequest, OutputSample, Route } from '../../core/contract.ts';
import { encodeImage } from './canvas-encoder.ts';
import { withUprightOrientation } from '../../core/exif.ts';
import { centredPart, changesPixels, turned } from '../../core/geometry.ts';
import { choosesQualityByLook } from '../../core/look.ts';
import { CONVERSION_ERRORS, imageTooLargeMessage } from '../../core/messages.ts';
import { SAMPLE_PIXELS, shownSize } from '../../core/plan.ts';
import { CODECS, SOURCE_CODECS } from '../../wasm/index.ts';
import { decodeToBitmap } from './decode.ts';
import { encodeByLook } from './encode.ts';
import { explainMemoryFailure } from '../../core/failures.ts';
import { whyLarger, type GrowthReason } from '../../core/growth.ts';
import { encodeOptions, encoderQuality, SourceBytes, STAGE_END, type ConversionOutcome, type EncodedImage, type ProgressReporter } from './job.ts';
import { crop } from './pixels.ts';
import { bitmapToBrowserEncoder } from './routes/bitmap.ts';
import { decodeInTurn, decodeUpright, pixelsToEncoder, transformed } from './routes/pixels.ts';
import { rowsToWasmEncoder } from './routes/rows.ts';
import { smartBitmapToBrowserEncoder } from './routes/smart-bitmap.ts';
import type { Resizer } from './transform.ts';

export type { ConversionOutcome, EncodedImage, ProgressReporter } from './job.ts';
export { encoderQuality } from './job.ts';
export { judgeOutput } from './judge.ts';

/** Bytes a container needs around an EXIF payload (chunk or segment headers, a WebP VP8X chunk). */
const EXIF_CONTAINER_OVERHEAD = 32;

/**
 * decode → (transform →) encode along the route the plan names (core/plan.ts planRoute) → metadata, on the plan the
 * page made from the source's header (the worker reads no header). A source or output over the pixel limit, and an
 * allocation that fails on the way, end as the visitor's message, never as a crash.
 */
export async function convertImage(request: ConvertRequest, resize: Resizer, report: ProgressReporter): Promise<ConversionOutcome> {
  try {
    return await convertWithinLimits(request, resize, report);
  } catch (error) {
    throw explainMemoryFailure(error);
  }
}

/**
 * The route's encode: a bitmap or rows route decodes a bitmap and hands it on; where that route does not apply (it
 * says so by giving no image, the bitmap still open), the bitmap goes down the pixel route, encoded at the slider's
 * quality. The pixel routes decode upright pixels and encode as they ask.
 */
async function encodeAlongRoute(request: ConvertRequest, sourceBytes: SourceBytes, resize: Resizer, reservedBytes: number, report: ProgressReporter): Promise<{ encoded: EncodedImage; route: Route }> {
  const { file, settings, plan } = request;
  const output = CODECS[settings.outputFormat];
  let bitmap: ImageBitmap | null = null;
  // Smart compression by the browser's encoder searches on the bitmap where nothing changes its pixels (as the plan
  // sends a plain re-encode to the bitmap route); a resize keeps the pixel route's smaller decode, taken in turn.
  const smartOnBitmap = plan.route === 'smart' && plan.encoder === 'browser' && !changesPixels(shownSize(plan.source), settings);
  if (plan.route === 'bitmap' || plan.route === 'rows' || smartOnBitmap) {
    // The browser's encoder takes the bitmap as it is; the rows route's decode takes its turn as the pixels' does.
    bitmap = plan.route === 'rows' ? await decodeInTurn(request, () => decodeToBitmap(file)) : await decodeToBitmap(file);
    if (bitmap) {
      report({ percent: STAGE_END.decode, stage: { name: 'encoding' } });
      const encoded =
        plan.route === 'bitmap'
          ? await bitmapToBrowserEncoder(bitmap, plan, output, settings, request.judgeLater)
          : plan.route === 'rows'
            ? await rowsToWasmEncoder(bitmap, output, request, report)
            : await smartBitmapToBrowserEncoder(bitmap, output, request, report);
      if (encoded) return { encoded, route: plan.route };
    }
  }
  const route = plan.route === 'target-size' || plan.route === 'smart' ? plan.route : 'pixels';
  const decoded = await decodeInTurn(request, () => decodeUpright(request, sourceBytes, bitmap)).finally(() => sourceBytes.release());
  const encoding = route === 'pixels' ? 'quality' : route;
  return { encoded: await pixelsToEncoder(decoded, output, request, encoding, resize, reservedBytes, report), route };
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
  // The source is the better file only where the output would be its pixels as they are, whichever way up the
  // decoder shows it.
  const unchangedEitherWay = !changesPixels(size, settings) && !changesPixels(turned(size), settings);
  const mayKeepSource = settings.keepOriginalIfLarger && format === settings.outputFormat && unchangedEitherWay;
  const sourceHasMetadata = mayKeepSource && settings.stripMetadata && source.metadata.hasMetadata(new Uint8Array(await sourceBytes.read()));

  const { encoded, route } = await encodeAlongRoute(request, sourceBytes, resize, reservedBytes, report);

  if (exif) report({ percent: STAGE_END.encode, stage: { name: 'metadata' } });
  const bytes = exif && output.metadata.writeExif ? output.metadata.writeExif(new Uint8Array(encoded.bytes), withUprightOrientation(exif), encoded).slice().buffer : encoded.bytes;
  report({ percent: STAGE_END.metadata });
  const keepSource = mayKeepSource && bytes.byteLength >= file.size && !sourceHasMetadata;
  const grewBecause = !keepSource && bytes.byteLength > file.size ? growthReason(request, encoded, bytes, route) : null;
  return { ...encoded, bytes, route, keptOriginal: keepSource ? { convertedBytes: bytes.byteLength } : null, grewBecause };
}

/** Why an output came out larger than its source (core/growth.ts), from what the conversion knows of both. */
function growthReason({ settings, plan }: ConvertRequest, encoded: EncodedImage, bytes: ArrayBuffer, route: Route): GrowthReason {
  const output = CODECS[settings.outputFormat];
  const smartQuality = encoded.look?.smartQuality ?? null;
  const quality = output.format.quality ? (smartQuality ?? settings.quality) : null;
  const lossless = quality === null || (quality >= 100 && output.format.quality?.losslessAtMax === true) || output.metadata.isLossless?.(new Uint8Array(bytes)) === true;
  const { size } = plan.source;
  return whyLarger({ source: plan.source.format, sourcePixels: size.width * size.height, output: settings.outputFormat, outputPixels: encoded.width * encoded.height, lossless, quality, smart: smartQuality !== null, targetSize: route === 'target-size' });
}

/**
 * What a conversion's output would weigh (OutputSample): decoded and transformed as the conversion would be, then a
 * centred part of at most SAMPLE_PIXELS encoded with the settings. Metadata and "keep the original" are left out:
 * the estimate is of the encoder's output.
 */
export async function sampleOutput(request: ConvertRequest, resize: Resizer): Promise<OutputSample> {
  try {
    const { settings } = request;
    const output = CODECS[settings.outputFormat];
    const sourceBytes = new SourceBytes(request.file);
    const decoded = await decodeInTurn(request, () => decodeUpright(request, sourceBytes, null)).finally(() => sourceBytes.release());
    if (!decoded) throw new Error(CONVERSION_ERRORS.load);
    const image = await transformed(decoded, output, request, resize);
    const part = crop(image, centredPart(image, SAMPLE_PIXELS));
    // With Smart compression, the part is searched as a whole image would be: its bytes at the quality found for it.
    const bytes = request.plan.route === 'smart' && choosesQualityByLook(settings, output.format, part) ? (await encodeByLook(part, output, request, () => undefined)).bytes : await encodeImage(output, part, encodeOptions(encoderQuality(settings), request));
    return { bytes: bytes.byteLength, pixels: part.width * part.height, outputPixels: image.width * image.height };
  } catch (error) {
    throw explainMemoryFailure(error);
  }
}
