import type { SourceHeader } from '../../core/contract.ts';
import { sourceFormatInfo } from '../../core/formats.ts';
import { UPRIGHT } from '../../core/orientation.ts';
import { toImageData } from '../../core/raw-image.ts';
import { SOURCE_CODECS } from '../../wasm/index.ts';
import { decodeWithWasm } from './decode.ts';
import { decodeScaledBitmap } from './scaled-decode.ts';

/**
 * An upright picture of an image at `scale` of its size or more, for what the page shows of it (a preview, the compare
 * view): decoded near that size where the browser can (decodeScaledBitmap), else whole.
 */
export async function bitmapNearScale(file: Blob, source: SourceHeader, scale: number): Promise<ImageBitmap> {
  const scaled = await decodeScaledBitmap(file, sourceFormatInfo(source.format).mimeType, source.size, scale);
  if (scaled) return uprightBitmap(scaled, source);
  let decoded: ImageBitmap;
  try {
    decoded = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (error) {
    return (await decodedByCodec(file, source)) ?? Promise.reject(error);
  }
  return uprightBitmap(decoded, source);
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
async function decodedByCodec(file: Blob, source: SourceHeader): Promise<ImageBitmap | null> {
  const pixels = await decodeWithWasm(await file.arrayBuffer(), SOURCE_CODECS[source.format], source.orientation);
  return pixels && createImageBitmap(toImageData(pixels));
}
