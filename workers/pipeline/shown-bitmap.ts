import type { SourceHeader } from '../../core/contract.ts';
import { sourceFormatInfo } from '../../core/formats.ts';
import { framesAlike } from '../../core/geometry.ts';
import { shownSizeOf, UPRIGHT } from '../../core/orientation.ts';
import { toImageData } from '../../core/raw-image.ts';
import { SOURCE_CODECS } from '../../wasm/index.ts';
import { decodeWithWasm } from './decode.ts';
import { uprightPixels } from './pixels.ts';
import { decodeScaledBitmap } from './scaled-decode.ts';

/**
 * An upright picture of an image at `scale` of its size or more, for what the page shows of it (a preview, the compare
 * view): decoded near that size where the browser can (decodeScaledBitmap), else whole. Where the browser cannot
 * decode the file at all, a picture the file carries for previews (a HEIC's thumbnail) is taken instead of a whole
 * decode if its longer edge is `thumbnailAtLeast` or more and it frames the image as the image shows.
 */
export async function bitmapNearScale(file: Blob, source: SourceHeader, scale: number, thumbnailAtLeast?: number): Promise<ImageBitmap> {
  const scaled = await decodeScaledBitmap(file, sourceFormatInfo(source.format).mimeType, source.size, scale);
  if (scaled) return uprightBitmap(scaled, source);
  let decoded: ImageBitmap;
  try {
    decoded = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (error) {
    // Read once for both: the thumbnail, and the whole decode where there is no thumbnail to take.
    const bytes = await file.arrayBuffer();
    const thumbnail = thumbnailAtLeast === undefined ? null : await embeddedThumbnail(bytes, source, thumbnailAtLeast);
    return thumbnail ?? (await decodedByCodec(bytes, source)) ?? Promise.reject(error);
  }
  return uprightBitmap(decoded, source);
}

/**
 * The picture the file carries for previews, upright, where its codec reads one at least `minLongEdge` long: an
 * iPhone's 12 MP HEIC carries a 320 × 240 thumbnail, decoded in about 10 ms where the photo takes a second. Turned as
 * the image is where it has no orientation of its own (an iPhone's has none beside the image's `irot`); null where
 * there is none, or it frames the picture otherwise (a thumbnail with bars, or of another aspect).
 */
async function embeddedThumbnail(bytes: ArrayBuffer, source: SourceHeader, minLongEdge: number): Promise<ImageBitmap | null> {
  const decodeThumbnail = SOURCE_CODECS[source.format].decodeThumbnail;
  if (!decodeThumbnail) return null;
  const thumbnail = await decodeThumbnail(bytes, minLongEdge).catch(() => null);
  if (!thumbnail) return null;
  const image = thumbnail.turnedOwnWay ? thumbnail.image : uprightPixels(thumbnail.image, source.orientation);
  return framesAlike(image, shownSizeOf(source.size, source.orientation)) ? createImageBitmap(toImageData(image)) : null;
}

/**
 * The browser's bitmap of a source, upright (upright-bitmap.ts, loaded only for a source not stored upright).
 */
async function uprightBitmap(bitmap: ImageBitmap, source: SourceHeader): Promise<ImageBitmap> {
  return source.orientation === UPRIGHT ? bitmap : (await import('./upright-bitmap.ts')).uprightBitmap(bitmap, source);
}

/**
 * The format's WASM decoder, where the browser has none for it (HEIC outside Safari): its .wasm and glue are fetched
 * only then (the codec's loader.ts), so a preview worker that never meets such a file never loads them.
 */
async function decodedByCodec(bytes: ArrayBuffer, source: SourceHeader): Promise<ImageBitmap | null> {
  const pixels = await decodeWithWasm(bytes, SOURCE_CODECS[source.format], source.orientation);
  return pixels && createImageBitmap(toImageData(pixels));
}
