import type { RawImage } from '../../core/raw-image.ts';

/**
 * A TIFF's first page as RGBA through UTIF (utif2, MIT: 8- and 16-bit, RGB, RGBA, grey and palette; uncompressed,
 * LZW, Deflate, PackBits, JPEG), loaded the first time a TIFF is converted in a browser that cannot decode it (Safari
 * can), as stored: the pipeline turns it as its Orientation tag says (read with the header), as Safari's decoder and
 * every viewer turn it.
 */
export async function decodeTiff(buffer: ArrayBuffer): Promise<RawImage> {
  const UTIF = await import('utif2');
  const [page] = UTIF.decode(buffer);
  if (!page) throw new Error('The TIFF file holds no image UTIF can read');
  UTIF.decodeImage(buffer, page);
  if (!page.width || !page.height) throw new Error('UTIF could not decode the TIFF image');
  const rgba = UTIF.toRGBA8(page);
  return { data: new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength), width: page.width, height: page.height };
}
