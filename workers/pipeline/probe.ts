import { HEIF } from 'image-size/types/heif';
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';
import { detectFormat, type ImageFormat } from '../formats';
import { ftypBoxSize } from './bytes';
import type { Size } from './geometry';

/** Bytes that tell every format apart, except an AVIF whose brand comes late in its ftyp box (see bytesNeededForSignature). */
export const SIGNATURE_LENGTH = 32;

/** A long brand list is legal but rare; this bounds the read for hostile headers. */
const MAX_SIGNATURE_READ = 4096;

/**
 * The first read for dimensions: a PNG's IHDR and a WebP's first chunk sit in the first 30 bytes, an AVIF's `ispe`
 * in its `meta` box (a few hundred bytes, first after `ftyp` as encoders write it), and a JPEG's SOF after its APPn
 * segments (EXIF is at most 64 KB).
 */
const FIRST_HEADER_READ = 64 * 1024;

/** A JPEG may carry more before its SOF (several ICC or XMP segments): one more read, and no further. */
export const MAX_HEADER_READ = 1024 * 1024;

/** A dimension any format here can hold and any decoder would accept: larger is a broken or hostile header. */
const MAX_DIMENSION = 1 << 24;

export type ImageSize = Size;

export interface ImageHeader {
  format: ImageFormat;
  /** As stored (before EXIF orientation, which does not change the pixel count); null when the header is unreadable. */
  size: ImageSize | null;
  /** Whether EXIF orientation (5–8) turns the stored image a quarter turn when shown; read for JPEG, false otherwise. */
  turned?: boolean;
}

/** image-size's parser for each format; each reads only the header and throws on bytes it cannot make sense of. */
const SIZE_PARSERS: Record<ImageFormat, { validate: (input: Uint8Array) => boolean; calculate: (input: Uint8Array) => ImageSize & { orientation?: number } }> = {
  jpeg: JPG,
  png: PNG,
  webp: WEBP,
  avif: HEIF,
};

/** How many leading bytes the signature check needs, given the first SIGNATURE_LENGTH bytes. */
export function bytesNeededForSignature(head: Uint8Array): number {
  const boxSize = ftypBoxSize(head);
  return boxSize > head.length ? Math.min(boxSize, MAX_SIGNATURE_READ) : head.length;
}

const isDimension = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_DIMENSION;

/**
 * The stored width and height in a header of the given format, and whether EXIF orientation turns them (image-size
 * reads a JPEG's orientation from its APP1 segment); null when these bytes do not give a size.
 */
export function readImageHeader(format: ImageFormat, header: Uint8Array): { size: ImageSize; turned: boolean } | null {
  const parser = SIZE_PARSERS[format];
  try {
    if (!parser.validate(header)) return null;
    const { width, height, orientation } = parser.calculate(header);
    if (!isDimension(width) || !isDimension(height)) return null;
    return { size: { width, height }, turned: typeof orientation === 'number' && orientation >= 5 && orientation <= 8 };
  } catch {
    // A truncated or malformed header: image-size throws, or reads past the end of the bytes.
    return null;
  }
}

/** The stored width and height in a header of the given format, or null when these bytes do not give them. */
export function readImageSize(format: ImageFormat, header: Uint8Array): ImageSize | null {
  return readImageHeader(format, header)?.size ?? null;
}

async function leadingBytes(blob: Blob, length: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(0, length).arrayBuffer());
}

/** Reads the few leading bytes of a Blob needed to identify its format, never the whole file. */
export async function sniffImageFormat(blob: Blob): Promise<ImageFormat | null> {
  let head = await leadingBytes(blob, SIGNATURE_LENGTH);
  const needed = bytesNeededForSignature(head);
  if (needed > head.length) head = await leadingBytes(blob, needed);
  return detectFormat(head);
}

/**
 * The format and stored dimensions of an image from its header, before anything decodes it: at most
 * MAX_HEADER_READ bytes are read, whatever the file's size. Null when the signature is no format of ours.
 */
export async function probeImage(blob: Blob): Promise<ImageHeader | null> {
  const format = await sniffImageFormat(blob);
  if (!format) return null;
  let head = await leadingBytes(blob, FIRST_HEADER_READ);
  let read = readImageHeader(format, head);
  if (!read && blob.size > head.length) {
    head = await leadingBytes(blob, MAX_HEADER_READ);
    read = readImageHeader(format, head);
  }
  return { format, size: read?.size ?? null, turned: read?.turned ?? false };
}
