import type { ConvertRequest } from '../../../core/contract.ts';
import { changesPixels } from '../../../core/geometry.ts';
import { choosesQualityByLook, LOOK_TILE, lookTiles } from '../../../core/look.ts';
import { UPRIGHT } from '../../../core/orientation.ts';
import { toImageData } from '../../../core/raw-image.ts';
import type { Codec } from '../../../wasm/index.ts';
import { orientationLeftByBrowser } from '../browser-orientation.ts';
import { drawShown, paintedCanvas, type PaintedCanvas } from '../canvas-encoder.ts';
import { predictorFor, searchByLook, type LookSearch } from '../encode.ts';
import type { EncodedImage, ProgressReporter } from '../job.ts';
import { lookView, lookViewOfBitmap } from '../look.ts';
import { flattens } from './bitmap.ts';

/**
 * The 'smart' route where the browser's encoder writes the output and nothing changes the pixels (Smart compression
 * with the default settings): the search (encode.ts searchByLook) on the decoded bitmap, as the 'bitmap' route
 * encodes. The bitmap is drawn once into a canvas that every whole encode exports at its quality, and once at half
 * size for the predictor where the format's predictor is that; only the views' pixels are read out. The pixel route
 * read all 96 MB of a 24 MP photo's pixels out, halved them in a loop and wrote them into a new canvas for each
 * encode (docs/decisions/perceptual-score.md, "Time").
 *
 * Null, the bitmap still open, where this route does not apply (as bitmapToBrowserEncoder's), or the output is too
 * small to judge: the pixel route then takes the bitmap.
 */
export async function smartBitmapToBrowserEncoder(bitmap: ImageBitmap, output: Codec, request: ConvertRequest, report: ProgressReporter): Promise<EncodedImage | null> {
  const { settings, plan } = request;
  const { format, orientation } = plan.source;
  if (changesPixels(bitmap, settings) || !choosesQualityByLook(settings, output.format, bitmap) || (await orientationLeftByBrowser(format, orientation)) !== UPRIGHT) return null;
  const { width, height } = bitmap;
  const { mimeType } = output.format;
  const background = flattens(output, format) ? settings.backgroundColor : null;
  const whole = await paintedCanvas(width, height, (context) => drawShown(context, bitmap, background), mimeType);
  if (!whole) return null;
  const painted: PaintedCanvas[] = [whole];
  try {
    const tiles = lookTiles(bitmap);
    const sourceView = lookViewOfBitmap(bitmap, tiles, background);
    const predictor = predictorFor(output, tiles);
    let search: LookSearch;
    if (predictor === 'image') {
      search = { sourceView, tiles, encodeWhole: whole.encode, previewView: sourceView, previewTiles: tiles, encodePreview: whole.encode };
    } else if (predictor === 'half') {
      const half = (await paintedCanvas(Math.ceil(width / 2), Math.ceil(height / 2), (context) => drawShown(context, bitmap, background), mimeType))!;
      painted.push(half);
      // The same places at the half size's own scale, as the pixel route judges its half-size copy.
      const previewTiles = lookTiles(half.canvas, LOOK_TILE / 2);
      search = { sourceView, tiles, encodeWhole: whole.encode, previewView: lookViewOfBitmap(half.canvas, previewTiles, null), previewTiles, encodePreview: half.encode };
    } else {
      const view = (await paintedCanvas(sourceView.width, sourceView.height, (context) => context.putImageData(toImageData(sourceView), 0, 0), mimeType))!;
      painted.push(view);
      const previewTiles = lookTiles(sourceView);
      search = { sourceView, tiles, encodeWhole: whole.encode, previewView: lookView(sourceView, previewTiles), previewTiles, encodePreview: view.encode };
    }
    bitmap.close();
    const found = await searchByLook(search, output, request, report);
    return { ...found, mimeType, width, height, lookSource: null };
  } finally {
    for (const canvas of painted) canvas.release();
  }
}
