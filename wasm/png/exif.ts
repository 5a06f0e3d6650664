import { ascii, be32, concat, crc32, latin1, u32be } from '../../core/bytes.ts';
import { tiffPayload } from '../../core/exif.ts';
import type { ContainerMetadata } from '../codec.ts';

/** Chunks that carry data about the image rather than the image. */
const METADATA_CHUNKS = new Set(['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME']);

function readExif(bytes: Uint8Array): Uint8Array | null {
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = u32be(bytes, offset);
    const type = ascii(bytes, offset + 4, 4);
    if (type === 'eXIf') return tiffPayload(bytes.subarray(offset + 8, offset + 8 + length));
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  return null;
}

function writeExif(png: Uint8Array, tiff: Uint8Array): Uint8Array {
  // eXIf must come before the first IDAT.
  let offset = 8;
  while (offset + 12 <= png.length && ascii(png, offset + 4, 4) !== 'IDAT') offset += 12 + u32be(png, offset);
  const typeAndData = concat(latin1('eXIf'), tiff);
  const chunk = concat(be32(tiff.length), typeAndData, be32(crc32(typeAndData)));
  return concat(png.subarray(0, offset), chunk, png.subarray(offset));
}

function hasMetadata(bytes: Uint8Array): boolean {
  for (let offset = 8; offset + 12 <= bytes.length; offset += 12 + u32be(bytes, offset)) {
    const type = ascii(bytes, offset + 4, 4);
    if (METADATA_CHUNKS.has(type)) return true;
    if (type === 'IEND') return false;
  }
  return false;
}

export const pngMetadata: ContainerMetadata = { readExif, writeExif, hasMetadata };
