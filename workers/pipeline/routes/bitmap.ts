import type { ConversionSettings, JobPlan } from '../../../core/contract.ts';
import { sourceFormatInfo, type SourceFormat } from '../../../core/formats.ts';
import { changesPixels } from '../../../core/geometry.ts';
import { judgesOutput, lookTiles } from '../../../core/look.ts';
import { UPRIGHT } from '../../../core/orientation.ts';
import type { Codec } from '../../../wasm/index.ts';
import { orientationLeftByBrowser } from '../browser-orientation.ts';
import { encodeBitmapWithCanvas } from '../canvas-encoder.ts';
import { encoderQuality, type EncodedImage } from '../job.ts';
import { lookAt, NOT_JUDGED } from '../judge.ts';
import { lookViewOfBitmap } from '../look.ts';

/** Whether a conversion flattens its pixels onto the background colour: an output without alpha from a source that may have some. */
export const flattens = (output: Codec, source: SourceFormat): boolean => !output.format.alpha && sourceFormatInfo(source).alpha;

/**
 * The 'bitmap' route: the browser's encoder on the decoded bitmap itself, the same output as the pixel route without
 * reading 48 MB of pixels out of a 12 MP bitmap and writing them back. The bitmap is upright as the browser's decoder
 * shows it; a source stored upright is handed to the canvas as it is (bitmaprenderer: no copy), any other is drawn,
 * which shows it as decoded (Chromium's bitmaprenderer takes a bitmap's stored pixels, its orientation dropped: a phone's
 * portrait came out lying on its side). An output without alpha is flattened onto the background colour unless the
 * source has no transparency either.
 *
 * Null, the bitmap still open, where this route does not apply: the decoder showed the source at another size than
 * its header said or left its orientation to the page (a WebP's EXIF in Chromium), or the browser does not encode the
 * type. The pixel route then takes the bitmap.
 */
export async function bitmapToBrowserEncoder(bitmap: ImageBitmap, plan: JobPlan, output: Codec, settings: ConversionSettings, judgeLater: boolean): Promise<EncodedImage | null> {
  const { format, orientation } = plan.source;
  if (changesPixels(bitmap, settings) || (await orientationLeftByBrowser(format, orientation)) !== UPRIGHT) return null;
  const { width, height } = bitmap;
  const background = flattens(output, format) ? settings.backgroundColor : null;
  // The source as the output frames it (flattened where the output is), read before the encoder takes the bitmap.
  const tiles = lookTiles(bitmap);
  const sourceView = judgesOutput(settings, output.format, bitmap) ? lookViewOfBitmap(bitmap, tiles, background) : null;
  const bytes = await encodeBitmapWithCanvas(bitmap, output.format.mimeType, encoderQuality(settings), { background, storedUpright: orientation === UPRIGHT });
  if (!bytes) return null;
  bitmap.close();
  const look = sourceView ? await lookAt(sourceView, tiles, bytes, output, judgeLater) : NOT_JUDGED;
  return { bytes, mimeType: output.format.mimeType, width, height, encodes: 1, ...look };
}
