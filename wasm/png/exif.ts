import { ascii, be32, concat, latin1, u32be } from '../../core/bytes.ts';
import { tiffPayload } from '../../core/exif.ts';
import type { ContainerMetadata } from '../codec.ts';

/** Chunks that carry data about the image rather than the image. */
const METADATA_CHUNKS = new Set(['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME']);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** A chunk's CRC (over its type and data), as PNG defines it. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

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
