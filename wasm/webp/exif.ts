import { ascii, concat, latin1, le24, le32, u32le } from '../../core/bytes.ts';
import { tiffPayload } from '../../core/exif.ts';
import type { ContainerMetadata } from '../codec.ts';

function readExif(bytes: Uint8Array): Uint8Array | null {
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const size = u32le(bytes, offset + 4);
    if (ascii(bytes, offset, 4) === 'EXIF') return tiffPayload(bytes.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size + (size % 2);
  }
  return null;
}

function chunk(fourcc: string, data: Uint8Array): Uint8Array {
  return concat(latin1(fourcc), le32(data.length), data, data.length % 2 ? new Uint8Array(1) : new Uint8Array());
}

/**
 * Whether a simple-format WebP carries alpha: only a lossless (VP8L) bitstream can, by a bit in its header; a lossy
 * image with alpha needs the extended format (VP8X with an ALPH chunk), which is handled apart.
 */
function simpleWebpHasAlpha(webp: Uint8Array): boolean {
  return ascii(webp, 12, 4) === 'VP8L' && ((webp[21 + 3]! >> 4) & 1) === 1;
}

function writeExif(webp: Uint8Array, tiff: Uint8Array, { width, height }: { width: number; height: number }): Uint8Array {
  const exif = chunk('EXIF', tiff);
  let body: Uint8Array;
  if (ascii(webp, 12, 4) === 'VP8X') {
    body = concat(webp.subarray(12), exif);
    body[8] = body[8]! | 0x08; // EXIF present
  } else {
    const flags = 0x08 | (simpleWebpHasAlpha(webp) ? 0x10 : 0);
    const vp8x = concat(new Uint8Array([flags, 0, 0, 0]), le24(width - 1), le24(height - 1));
    body = concat(chunk('VP8X', vp8x), webp.subarray(12), exif);
  }
  return concat(latin1('RIFF'), le32(body.length + 4), latin1('WEBP'), body);
}

function hasMetadata(bytes: Uint8Array): boolean {
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const type = ascii(bytes, offset, 4);
    if (type === 'EXIF' || type === 'XMP ') return true;
    const size = u32le(bytes, offset + 4);
    offset += 8 + size + (size % 2);
  }
  return false;
}

/** Whether the image is a lossless (VP8L) bitstream, after a VP8X header and any metadata chunks. */
function isLossless(bytes: Uint8Array): boolean {
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const type = ascii(bytes, offset, 4);
    if (type === 'VP8L') return true;
    if (type === 'VP8 ') return false;
    const size = u32le(bytes, offset + 4);
    offset += 8 + size + (size % 2);
  }
  return false;
}

export const webpMetadata: ContainerMetadata = { readExif, writeExif, hasMetadata, isLossless };
