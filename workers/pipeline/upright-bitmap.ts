import type { SourceHeader } from '../../core/contract';
import { UPRIGHT } from '../../core/orientation';
import { bitmapToPixels } from './bitmap-pixels';
import { orientationLeftByBrowser } from './browser-orientation';
import { toImageData } from './canvas-encoder';
import { uprightPixels } from './pixels';

/**
 * The browser's bitmap of a source, upright: as it is where the browser applied the source's orientation, else
 * its pixels turned as the header says (a WebP's EXIF in Chromium, an AVIF's irot in WebKitGTK). Loaded by the
 * pictures the page shows (scaled-decode.ts bitmapNearScale) only for a source that is not stored upright.
 */
export async function uprightBitmap(bitmap: ImageBitmap, source: SourceHeader): Promise<ImageBitmap> {
  const left = await orientationLeftByBrowser(source.format, source.orientation);
  if (left === UPRIGHT) return bitmap;
  return createImageBitmap(toImageData(uprightPixels(await bitmapToPixels(bitmap), left)));
}
