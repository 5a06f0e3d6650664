import { ascii, concat, startsWithBytes, u16be, u16le, u32be, u32le } from './bytes.ts';

/**
 * The EXIF payload as every container holds it: a TIFF structure ("II*\0…" or "MM\0*…"), which JPEG (and some
 * writers of PNG and WebP) prefix with "Exif\0\0". Read on the page (a JPEG's orientation, for its header) and in
 * the workers (orientation set upright in what is written back).
 */

export const EXIF_PREFIX = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
const ORIENTATION_TAG = 0x0112;

/** The TIFF structure of an EXIF payload, with or without the "Exif\0\0" prefix; null when it is none. */
export function tiffPayload(payload: Uint8Array): Uint8Array | null {
  const tiff = startsWithBytes(payload, EXIF_PREFIX) ? payload.subarray(EXIF_PREFIX.length) : payload;
  return isTiff(tiff) ? tiff : null;
}

function isTiff(payload: Uint8Array): boolean {
  const order = ascii(payload, 0, 2);
  return payload.length >= 8 && (order === 'II' || order === 'MM');
}

/** Byte offset of IFD0's Orientation value, or -1. */
function orientationOffset(tiff: Uint8Array): number {
  const little = tiff[0] === 0x49;
  const u16 = (o: number) => (little ? u16le(tiff, o) : u16be(tiff, o));
  const u32 = (o: number) => (little ? u32le(tiff, o) : u32be(tiff, o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return -1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return -1;
    if (u16(entry) === ORIENTATION_TAG) return entry + 8;
  }
  return -1;
}

/** EXIF Orientation (1–8), 1 when absent. */
export function exifOrientation(tiff: Uint8Array): number {
  const offset = orientationOffset(tiff);
  if (offset === -1) return 1;
  const value = tiff[0] === 0x49 ? u16le(tiff, offset) : u16be(tiff, offset);
  return value >= 1 && value <= 8 ? value : 1;
}

/** A copy with Orientation set to 1: the pixels we write are already upright. */
export function withUprightOrientation(tiff: Uint8Array): Uint8Array {
  const copy = tiff.slice();
  const offset = orientationOffset(copy);
  if (offset !== -1) {
    const little = copy[0] === 0x49;
    copy[offset] = little ? 1 : 0;
    copy[offset + 1] = little ? 0 : 1;
  }
  return copy;
}

/** A TIFF (EXIF payload) that says only Orientation = `orientation`: big-endian, one IFD of one entry. */
export function orientationExif(orientation: number): Uint8Array {
  const header = [0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08];
  const entry = [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00];
  return concat(new Uint8Array(header), new Uint8Array([0x00, 0x01]), new Uint8Array(entry), new Uint8Array(4));
}
