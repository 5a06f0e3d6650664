import { blobSource, bytesSource, type ByteSource } from '../../core/byte-source.ts';
import { ftypBoxSize } from '../../core/bytes.ts';
import { detectFormat, SOURCE_FORMAT_IDS, type HeaderRead, type SourceFormat } from '../../core/formats.ts';
import type { Size } from '../../core/geometry.ts';
import { UPRIGHT } from '../../core/orientation.ts';

type HeaderReader = (source: ByteSource) => Promise<HeaderRead | null>;

/**
 * Each format's header reader, from its codec folder (wasm/<format>/header.ts, found by the build): they load with
 * this module, on the first file, not with the idle page.
 */
const HEADER_READERS = (() => {
  const found = import.meta.glob<{ readHeader: HeaderReader }>('../../wasm/*/header.ts', { eager: true });
  const readerOf = (format: SourceFormat) => found[`../../wasm/${format}/header.ts`]?.readHeader;
  return Object.fromEntries(
    SOURCE_FORMAT_IDS.map((format) => {
      const reader = readerOf(format);
      if (!reader) throw new Error(`No header reader for the format "${format}" (wasm/${format}/header.ts)`);
      return [format, reader];
    }),
  ) as Record<SourceFormat, HeaderReader>;
})();

/** Bytes that tell every format apart, except an AVIF whose brand comes late in its ftyp box (see bytesNeededForSignature). */
export const SIGNATURE_LENGTH = 32;

/** A long brand list is legal but rare; this bounds the read for hostile headers. */
const MAX_SIGNATURE_READ = 4096;

/** A dimension any format here can hold and any decoder would accept: larger is a broken or hostile header. */
const MAX_DIMENSION = 1 << 24;

export type ImageSize = Size;

/** What the header reader read (HeaderRead: which way up it is shown, whether animated, how many pages), with the format. */
export interface ImageHeader extends Partial<Omit<HeaderRead, 'size'>> {
  format: SourceFormat;
  /** As stored (before EXIF orientation, which does not change the pixel count); null when the header is unreadable. */
  size: ImageSize | null;
}

/** How many leading bytes the signature check needs, given the first SIGNATURE_LENGTH bytes. */
export function bytesNeededForSignature(head: Uint8Array): number {
  const boxSize = ftypBoxSize(head);
  return boxSize > head.length ? Math.min(boxSize, MAX_SIGNATURE_READ) : head.length;
}

const isDimension = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_DIMENSION;

/**
 * The stored width and height of an image of the given format, and whether showing it turns it a quarter (EXIF
 * orientation 5–8, AVIF `irot` 1 or 3); null when its bytes do not give a size.
 */
export async function readImageHeader(format: SourceFormat, source: ByteSource | Uint8Array): Promise<HeaderRead | null> {
  try {
    const read = await HEADER_READERS[format](source instanceof Uint8Array ? bytesSource(source) : source);
    return read && isDimension(read.size.width) && isDimension(read.size.height) ? read : null;
  } catch {
    // A malformed header: image-size throws, or reads past the end of the bytes.
    return null;
  }
}

async function leadingBytes(blob: Blob, length: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(0, length).arrayBuffer());
}

/** Reads the few leading bytes of a Blob needed to identify its format, never the whole file. */
export async function sniffImageFormat(blob: Blob): Promise<SourceFormat | null> {
  let head = await leadingBytes(blob, SIGNATURE_LENGTH);
  const needed = bytesNeededForSignature(head);
  if (needed > head.length) head = await leadingBytes(blob, needed);
  return detectFormat(head);
}

/**
 * The format and stored dimensions of an image from its header, before anything decodes it: only the headers are
 * read, a window at a time, never the pixels, however far into the file the header is. Null when the signature is no
 * format of ours.
 */
export async function probeImage(blob: Blob): Promise<ImageHeader | null> {
  const format = await sniffImageFormat(blob);
  if (!format) return null;
  const read = await readImageHeader(format, blobSource(blob));
  return read ? { format, ...read } : { format, size: null, orientation: UPRIGHT };
}
