import type { ImageFormat } from '../contract';

/** Bytes that must be read to tell every format apart (AVIF may need more: see bytesNeededForAvifBrands). */
export const SIGNATURE_LENGTH = 32;

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const AVIF_BRANDS = new Set(['avif', 'avis']);

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return signature.every((value, i) => bytes[offset + i] === value);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function readUint32BE(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

/** Size of the leading ISO-BMFF `ftyp` box, or 0 when the bytes do not start with one. */
export function ftypBoxSize(bytes: Uint8Array): number {
  if (bytes.length < 8 || ascii(bytes, 4, 4) !== 'ftyp') return 0;
  return readUint32BE(bytes, 0);
}

function isAvif(bytes: Uint8Array): boolean {
  const boxSize = ftypBoxSize(bytes);
  if (boxSize < 16) return false;
  const end = Math.min(boxSize, bytes.length);
  if (AVIF_BRANDS.has(ascii(bytes, 8, 4))) return true;
  // Compatible brands follow the major brand (8..12) and minor version (12..16).
  for (let offset = 16; offset + 4 <= end; offset += 4) {
    if (AVIF_BRANDS.has(ascii(bytes, offset, 4))) return true;
  }
  return false;
}

/** The image format the leading bytes announce, or null when they match none we accept. */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, PNG)) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (isAvif(bytes)) return 'avif';
  return null;
}

/** How many leading bytes detectImageFormat needs, given the first SIGNATURE_LENGTH bytes. */
export function bytesNeededForSignature(head: Uint8Array): number {
  const boxSize = ftypBoxSize(head);
  // A long brand list is legal but rare; 4 KB bounds the read for hostile headers.
  return boxSize > head.length ? Math.min(boxSize, 4096) : head.length;
}

/** Reads the few leading bytes of a Blob needed to identify its format, never the whole file. */
export async function sniffImageFormat(blob: Blob): Promise<ImageFormat | null> {
  let head = new Uint8Array(await blob.slice(0, SIGNATURE_LENGTH).arrayBuffer());
  const needed = bytesNeededForSignature(head);
  if (needed > head.length) head = new Uint8Array(await blob.slice(0, needed).arrayBuffer());
  return detectImageFormat(head);
}
