import { be16, concat, startsWithBytes, u16be } from '../../core/bytes.ts';
import { EXIF_PREFIX, tiffPayload } from '../../core/exif.ts';
import type { ContainerMetadata } from '../codec.ts';

/** Segments that carry data about the image rather than the image: APP1 (EXIF, XMP), APP13 (IPTC), comments. */
const METADATA_MARKERS = new Set([0xe1, 0xed, 0xfe]);

function readExif(bytes: Uint8Array): Uint8Array | null {
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) break; // start of scan / end of image: no more metadata
    const length = u16be(bytes, offset + 2);
    const payload = bytes.subarray(offset + 4, offset + 2 + length);
    if (marker === 0xe1 && startsWithBytes(payload, EXIF_PREFIX)) return tiffPayload(payload);
    offset += 2 + length;
  }
  return null;
}

function writeExif(jpeg: Uint8Array, tiff: Uint8Array): Uint8Array {
  const segmentLength = 2 + EXIF_PREFIX.length + tiff.length;
  if (segmentLength > 0xffff) return jpeg; // EXIF larger than one segment (huge maker notes): drop it rather than corrupt the file
  // Right after SOI, or after a JFIF APP0 when the encoder wrote one.
  let insertAt = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) insertAt = 4 + u16be(jpeg, 4);
  const segment = concat(new Uint8Array([0xff, 0xe1]), be16(segmentLength), new Uint8Array(EXIF_PREFIX), tiff);
  return concat(jpeg.subarray(0, insertAt), segment, jpeg.subarray(insertAt));
}

function hasMetadata(bytes: Uint8Array): boolean {
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) return false;
    if (METADATA_MARKERS.has(marker)) return true;
    offset += 2 + u16be(bytes, offset + 2);
  }
  return false;
}

export const jpegMetadata: ContainerMetadata = { readExif, writeExif, hasMetadata };
