import type { Size } from '../../core/geometry.ts';

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
