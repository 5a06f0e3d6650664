import type { ImageFormat } from '../formats';
import { topLevelBox } from './avif-header';
import { ascii, containsBytes, startsWithBytes, u16be, u16le, u32be, u32le } from './bytes';

/**
 * EXIF in and out of the containers we write. The payload handled here is the TIFF structure
 * ("II*\0…" or "MM\0*…"), without JPEG's "Exif\0\0" prefix.
 */

const EXIF_PREFIX = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
const ORIENTATION_TAG = 0x0112;

function withoutExifPrefix(payload: Uint8Array): Uint8Array {
  return startsWithBytes(payload, EXIF_PREFIX) ? payload.subarray(EXIF_PREFIX.length) : payload;
}

function isTiff(payload: Uint8Array): boolean {
  const order = ascii(payload, 0, 2);
  return payload.length >= 8 && (order === 'II' || order === 'MM');
}

function jpegExif(bytes: Uint8Array): Uint8Array | null {
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) break; // start of scan / end of image: no more metadata
    const length = u16be(bytes, offset + 2);
    const payload = bytes.subarray(offset + 4, offset + 2 + length);
    if (marker === 0xe1 && startsWithBytes(payload, EXIF_PREFIX)) return payload.subarray(EXIF_PREFIX.length);
    offset += 2 + length;
  }
  return null;
}

function pngExif(bytes: Uint8Array): Uint8Array | null {
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = u32be(bytes, offset);
    const type = ascii(bytes, offset + 4, 4);
    if (type === 'eXIf') return withoutExifPrefix(bytes.subarray(offset + 8, offset + 8 + length));
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  return null;
}

function webpExif(bytes: Uint8Array): Uint8Array | null {
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const size = u32le(bytes, offset + 4);
    if (ascii(bytes, offset, 4) === 'EXIF') return withoutExifPrefix(bytes.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size + (size % 2);
  }
  return null;
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

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const be16 = (v: number) => new Uint8Array([(v >> 8) & 0xff, v & 0xff]);
const be32 = (v: number) => new Uint8Array([(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
const le32 = (v: number) => new Uint8Array([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]);
const le24 = (v: number) => new Uint8Array([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff]);
const text = (s: string) => new Uint8Array([...s].map((c) => c.charCodeAt(0)));

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function writeJpegExif(jpeg: Uint8Array, tiff: Uint8Array): Uint8Array {
  const segmentLength = 2 + EXIF_PREFIX.length + tiff.length;
  if (segmentLength > 0xffff) return jpeg; // EXIF larger than one segment (huge maker notes): drop it rather than corrupt the file
  // Right after SOI, or after a JFIF APP0 when the encoder wrote one.
  let insertAt = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) insertAt = 4 + u16be(jpeg, 4);
  const segment = concat(new Uint8Array([0xff, 0xe1]), be16(segmentLength), new Uint8Array(EXIF_PREFIX), tiff);
  return concat(jpeg.subarray(0, insertAt), segment, jpeg.subarray(insertAt));
}

function writePngExif(png: Uint8Array, tiff: Uint8Array): Uint8Array {
  // eXIf must come before the first IDAT.
  let offset = 8;
  while (offset + 12 <= png.length && ascii(png, offset + 4, 4) !== 'IDAT') offset += 12 + u32be(png, offset);
  const typeAndData = concat(text('eXIf'), tiff);
  const chunk = concat(be32(tiff.length), typeAndData, be32(crc32(typeAndData)));
  return concat(png.subarray(0, offset), chunk, png.subarray(offset));
}

function webpChunk(fourcc: string, data: Uint8Array): Uint8Array {
  return concat(text(fourcc), le32(data.length), data, data.length % 2 ? new Uint8Array(1) : new Uint8Array());
}

/**
 * Whether a simple-format WebP carries alpha: only a lossless (VP8L) bitstream can, by a bit in its header; a lossy
 * image with alpha needs the extended format (VP8X with an ALPH chunk), which is handled apart.
 */
function simpleWebpHasAlpha(webp: Uint8Array): boolean {
  return ascii(webp, 12, 4) === 'VP8L' && ((webp[21 + 3]! >> 4) & 1) === 1;
}

function writeWebpExif(webp: Uint8Array, tiff: Uint8Array, width: number, height: number): Uint8Array {
  const exif = webpChunk('EXIF', tiff);
  let body: Uint8Array;
  if (ascii(webp, 12, 4) === 'VP8X') {
    body = concat(webp.subarray(12), exif);
    body[8] = body[8]! | 0x08; // EXIF present
  } else {
    const flags = 0x08 | (simpleWebpHasAlpha(webp) ? 0x10 : 0);
    const vp8x = concat(new Uint8Array([flags, 0, 0, 0]), le24(width - 1), le24(height - 1));
    body = concat(webpChunk('VP8X', vp8x), webp.subarray(12), exif);
  }
  return concat(text('RIFF'), le32(body.length + 4), text('WEBP'), body);
}

interface ExifContainer {
  read: (bytes: Uint8Array) => Uint8Array | null;
  write: (encoded: Uint8Array, tiff: Uint8Array, size: { width: number; height: number }) => Uint8Array;
}

/** The containers whose EXIF is read and written here; the registry's `exif` flag says which outputs get it. */
const EXIF_CONTAINERS: Partial<Record<ImageFormat, ExifContainer>> = {
  jpeg: { read: jpegExif, write: writeJpegExif },
  png: { read: pngExif, write: writePngExif },
  webp: { read: webpExif, write: (encoded, tiff, size) => writeWebpExif(encoded, tiff, size.width, size.height) },
};

/** Whether EXIF is read from and written into this container here. */
export function carriesExif(format: ImageFormat): boolean {
  return EXIF_CONTAINERS[format] !== undefined;
}

/** The source's EXIF (TIFF payload), or null when it has none or we cannot read it from this container. */
export function readExif(bytes: Uint8Array, format: ImageFormat): Uint8Array | null {
  const payload = EXIF_CONTAINERS[format]?.read(bytes) ?? null;
  return payload && isTiff(payload) ? payload : null;
}

/** Writes EXIF into an encoded file; returns the file unchanged for a container we do not write (AVIF). */
export function writeExif(encoded: Uint8Array, format: ImageFormat, tiff: Uint8Array, size: { width: number; height: number }): Uint8Array {
  return EXIF_CONTAINERS[format]?.write(encoded, tiff, size) ?? encoded;
}

/** JPEG segments that carry data about the image rather than the image: APP1 (EXIF, XMP), APP13 (IPTC), comments. */
const JPEG_METADATA_MARKERS = new Set([0xe1, 0xed, 0xfe]);
/** PNG chunks of the same kind. */
const PNG_METADATA_CHUNKS = new Set(['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME']);

function jpegHasMetadata(bytes: Uint8Array): boolean {
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) return false;
    if (JPEG_METADATA_MARKERS.has(marker)) return true;
    offset += 2 + u16be(bytes, offset + 2);
  }
  return false;
}

function pngHasMetadata(bytes: Uint8Array): boolean {
  for (let offset = 8; offset + 12 <= bytes.length; offset += 12 + u32be(bytes, offset)) {
    const type = ascii(bytes, offset + 4, 4);
    if (PNG_METADATA_CHUNKS.has(type)) return true;
    if (type === 'IEND') return false;
  }
  return false;
}

function webpHasMetadata(bytes: Uint8Array): boolean {
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const type = ascii(bytes, offset, 4);
    if (type === 'EXIF' || type === 'XMP ') return true;
    const size = u32le(bytes, offset + 4);
    offset += 8 + size + (size % 2);
  }
  return false;
}

const latin1 = (text: string) => [...text].map((c) => c.charCodeAt(0));
const AVIF_METADATA_MARKS = [latin1('Exif'), latin1('application/rdf+xml')];

/** An AVIF's metadata are items of its `meta` box: an `Exif` item, or XMP as a `mime` item. */
function avifHasMetadata(bytes: Uint8Array): boolean {
  const meta = topLevelBox(bytes, 'meta');
  return meta !== null && AVIF_METADATA_MARKS.some((mark) => containsBytes(bytes, mark, meta.start, meta.end));
}

const METADATA_FINDERS: Record<ImageFormat, (bytes: Uint8Array) => boolean> = {
  jpeg: jpegHasMetadata,
  png: pngHasMetadata,
  webp: webpHasMetadata,
  avif: avifHasMetadata,
};

/**
 * Whether a file carries metadata that "Strip metadata" would remove (EXIF, XMP, IPTC, comments, text): a source
 * handed back unchanged must not carry any when the visitor asked for them gone.
 */
export function carriesMetadata(bytes: Uint8Array, format: ImageFormat): boolean {
  return METADATA_FINDERS[format](bytes);
}
