import { WEBP } from 'image-size/types/webp';
import { fixedHeaderReader, type ByteSource } from '../../core/byte-source.ts';
import { ascii, u32le } from '../../core/bytes.ts';
import { exifOrientation, tiffPayload } from '../../core/exif.ts';
import type { HeaderRead } from '../../core/format.ts';
import { asOrientation, UPRIGHT, type Orientation } from '../../core/orientation.ts';

/** The first chunk (VP8, VP8L or VP8X) holds the canvas size: image-size's parser reads it. */
const readSize = fixedHeaderReader(WEBP);

/** EXIF's first directory, where Orientation is, sits in its first bytes: no more of the chunk is read. */
const EXIF_READ = 64 * 1024;
/** VP8X's flag for an EXIF chunk. */
const HAS_EXIF = 0x08;

/**
 * The orientation of an extended WebP's EXIF chunk. It comes after the image's data (WebP's container): the chunks
 * are walked by their 8-byte headers, so a large file is not read to reach it.
 */
async function exifChunkOrientation(source: ByteSource): Promise<Orientation> {
  const head = await source.read(0, 21);
  if (head.length < 21 || ascii(head, 12, 4) !== 'VP8X' || (head[20]! & HAS_EXIF) === 0) return UPRIGHT;
  for (let offset = 12; offset + 8 <= source.size; ) {
    const chunk = await source.read(offset, 8);
    if (chunk.length < 8) break;
    const length = u32le(chunk, 4);
    if (ascii(chunk, 0, 4) === 'EXIF') {
      const tiff = tiffPayload(await source.read(offset + 8, Math.min(length, EXIF_READ)));
      return tiff ? asOrientation(exifOrientation(tiff)) : UPRIGHT;
    }
    offset += 8 + length + (length % 2);
  }
  return UPRIGHT;
}

/** The canvas size, and the orientation its EXIF chunk gives. */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const read = await readSize(source);
  return read && { ...read, orientation: await exifChunkOrientation(source) };
}
