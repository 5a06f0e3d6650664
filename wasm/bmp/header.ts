import { BMP } from 'image-size/types/bmp';
import type { ByteSource } from '../../core/byte-source.ts';
import { u16le, u32le } from '../../core/bytes.ts';
import type { HeaderRead } from '../../core/format.ts';
import { UPRIGHT } from '../../core/orientation.ts';

/**
 * The size is in the DIB header, at a fixed place: image-size's parser reads it (a negative height is a top-down
 * BMP), except in an OS/2 1.x header (12 bytes), whose width and height are 16-bit.
 */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const head = await source.read(0, 26);
  if (head.length < 26 || !BMP.validate(head)) return null;
  const size = u32le(head, 14) === 12 ? { width: u16le(head, 18), height: u16le(head, 20) } : BMP.calculate(head);
  return { size, orientation: UPRIGHT };
}
