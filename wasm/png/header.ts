import { PNG } from 'image-size/types/png';
import { fixedHeaderReader, type ByteSource } from '../../core/byte-source.ts';
import { ascii, u32be } from '../../core/bytes.ts';
import { exifOrientation, tiffPayload } from '../../core/exif.ts';
import type { HeaderRead } from '../../core/format.ts';
import { asOrientation, UPRIGHT, type Orientation } from '../../core/orientation.ts';

/** IHDR is the first chunk, its size at a fixed place: image-size's parser reads it. */
const readSize = fixedHeaderReader(PNG);

/** EXIF's first directory, where Orientation is, sits in its first bytes: no more of an eXIf chunk is read. */
const EXIF_READ = 64 * 1024;

/**
 * The orientation of an `eXIf` chunk, which comes before the first IDAT (PNG's third edition): the chunks are walked
 * by their headers, 8 bytes each, up to it.
 */
async function exifChunkOrientation(source: ByteSource): Promise<Orientation> {
  for (let offset = 8; offset + 12 <= source.size; ) {
    const head = await source.read(offset, 8);
    if (head.length < 8) break;
    const length = u32be(head, 0);
    const type = ascii(head, 4, 4);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'eXIf') {
      const tiff = tiffPayload(await source.read(offset + 8, Math.min(length, EXIF_READ)));
      return tiff ? asOrientation(exifOrientation(tiff)) : UPRIGHT;
    }
    offset += 12 + length;
  }
  return UPRIGHT;
}

/** The stored size, and the orientation its `eXIf` chunk gives (photo tools write one; browsers show it). */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const read = await readSize(source);
  return read && { ...read, orientation: await exifChunkOrientation(source) };
}
