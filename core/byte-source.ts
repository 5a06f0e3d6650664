import type { HeaderRead } from './format.ts';
import { UPRIGHT } from './orientation.ts';

/**
 * Random access to a file's bytes for the header readers, which jump over what they do not need: a JPEG's frame
 * header can sit megabytes in, behind XMP and thumbnails, and an AVIF's `meta` box after its `mdat`.
 */
export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes from `offset`: fewer at the end of the file, none past it. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/**
 * Reads a Blob a window at a time and keeps the last window, so a walk over small segment headers costs one read per
 * window, not one per header; a jump past the window reads afresh from where it lands.
 */
export function blobSource(blob: Blob, window = 16 * 1024): ByteSource {
  let cachedAt = 0;
  let cached = new Uint8Array(0);
  return {
    size: blob.size,
    async read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      if (offset >= cachedAt && end <= cachedAt + cached.length) return cached.subarray(offset - cachedAt, end - cachedAt);
      const readEnd = Math.min(blob.size, Math.max(end, offset + window));
      const bytes = new Uint8Array(await blob.slice(offset, readEnd).arrayBuffer());
      cachedAt = offset;
      cached = bytes;
      return bytes.subarray(0, end - offset);
    },
  };
}

/** Bytes already in memory, as a source. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length)),
  };
}

/** A format whose size sits at a fixed place in its first bytes: image-size's parser for it (it throws on bad bytes). */
interface FixedHeaderParser {
  validate: (input: Uint8Array) => boolean;
  calculate: (input: Uint8Array) => { width: number; height: number };
}

/** A PNG's IHDR and a WebP's first chunk, with their dimensions, sit in the first 30 bytes. */
const FIXED_HEADER_READ = 64;

/** The header reader of a format whose dimensions sit in its first bytes, shown as stored. */
export function fixedHeaderReader(parser: FixedHeaderParser) {
  return async (source: ByteSource): Promise<HeaderRead | null> => {
    const head = await source.read(0, FIXED_HEADER_READ);
    if (!parser.validate(head)) return null;
    const { width, height } = parser.calculate(head);
    return { size: { width, height }, orientation: UPRIGHT };
  };
}
