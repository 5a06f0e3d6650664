import type { SourceHeader } from '../../core/contract.ts';
import { sourceFormatInfo } from '../../core/formats.ts';
import type { Size } from '../../core/geometry.ts';
import { UPRIGHT } from '../../core/orientation.ts';
import { toImageData } from '../../core/raw-image.ts';

/**
 * The size to ask a decoder that scales in eighths (JPEG's DCT scaling) for, so that at least `scale` of `full`
 * comes back: the decoder picks the largest eighth at or below the size asked, so ask for the smallest eighth at or
 * above the scale.
 */
export function eighthsAtLeast(full: Size, scale: number): Size {
  const eighths = Math.min(8, Math.max(1, Math.ceil(scale * 8 - 1e-9)));
  return { width: Math.ceil((full.width * eighths) / 8), height: Math.ceil((full.height * eighths) / 8) };
}

/**
 * Decodes at `scale` of the stored size or a little more, where the browser's decoder can (WebCodecs' ImageDecoder
 * with a desired size; Chromium's JPEG decoder then scales in the DCT): a photo that will be resized to half its
 * width decodes a quarter of its pixels, in a quarter of the memory. Upright (the frame's orientation applied:
 * upright-bitmap.ts uprightFrameBitmap). Null where there is no ImageDecoder, it fails, or it gave less than asked.
 */
export async function decodeScaledBitmap(file: Blob, mimeType: string, stored: Size, scale: number): Promise<ImageBitmap | null> {
  if (typeof ImageDecoder === 'undefined' || !(await ImageDecoder.isTypeSupported(mimeType).catch(() => false))) return null;
  const desired = eighthsAtLeast(stored, scale);
  let decoder: ImageDecoder | null = null;
  try {
    decoder = new ImageDecoder({ data: file.stream(), type: mimeType, desiredWidth: desired.width, desiredHeight: desired.height });
    const { image } = await decoder.decode();
    const enough = image.codedWidth >= Math.ceil(stored.width * scale) && image.codedHeight >= Math.ceil(stored.height * scale);
    try {
      return enough ? await (await import('./upright-bitmap.ts')).uprightFrameBitmap(image) : null;
    } finally {
      image.close();
    }
  } catch {
    return null;
  } finally {
    decoder?.close();
  }
}

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
 * The format's WASM decoder, where the browser has none for it (HEIC outside Safari): loaded only then, so a preview
 * worker that never meets such a file never loads the codecs.
 */
async function decodedByCodec(file: Blob, source: SourceHeader): Promise<ImageBitmap | null> {
  const [{ SOURCE_CODECS }, { decodeWithWasm }] = await Promise.all([import('../../wasm/index.ts'), import('./decode.ts')]);
  const pixels = await decodeWithWasm(await file.arrayBuffer(), SOURCE_CODECS[source.format], source.orientation);
  return pixels && createImageBitmap(toImageData(pixels));
}
