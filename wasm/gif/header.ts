import { GIF } from 'image-size/types/gif';
import type { ByteSource } from '../../core/byte-source.ts';
import { ascii } from '../../core/bytes.ts';
import type { HeaderRead } from '../../core/format.ts';
import { UPRIGHT } from '../../core/orientation.ts';

/** How far into a GIF the walk looks for a second frame: an animation's first frame is rarely larger, and intake reads no more. */
const ANIMATION_LOOK_AHEAD = 1024 * 1024;

const EXTENSION = 0x21;
const IMAGE = 0x2c;
const APPLICATION = 0xff;

/** A colour table's bytes, from a descriptor's packed field: present when its top bit is set. */
const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/**
 * The logical screen's size (the first 10 bytes: image-size's parser reads it), and whether the GIF is animated: a
 * looping extension (NETSCAPE2.0 or ANIMEXTS1.0) or a second image within the first megabyte. Browsers decode the
 * first frame, and the card says so.
 */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const head = await source.read(0, 13);
  if (head.length < 10 || !GIF.validate(head)) return null;
  const size = GIF.calculate(head);
  return { size, orientation: UPRIGHT, animated: head.length === 13 ? await isAnimated(source, 13 + colourTableBytes(head[10]!)) : false };
}

/** Walks the blocks after the screen descriptor (and its colour table) from `offset`, up to the look-ahead. */
async function isAnimated(source: ByteSource, offset: number): Promise<boolean> {
  let images = 0;
  const end = Math.min(source.size, ANIMATION_LOOK_AHEAD);
  while (offset < end) {
    const [introducer, label] = await source.read(offset, 2);
    if (introducer === EXTENSION && label !== undefined) {
      if (label === APPLICATION) {
        const block = await source.read(offset + 2, 12);
        if (block[0] === 11 && ['NETSCAPE2.0', 'ANIMEXTS1.0'].includes(ascii(block, 1, 11))) return true;
      }
      offset = await skipSubBlocks(source, offset + 2, end);
    } else if (introducer === IMAGE) {
      if (++images > 1) return true;
      const descriptor = await source.read(offset + 1, 9);
      if (descriptor.length < 9) return false;
      // The descriptor, its colour table, the LZW code size, then the data's sub-blocks.
      offset = await skipSubBlocks(source, offset + 10 + colourTableBytes(descriptor[8]!) + 1, end);
    } else {
      // The trailer, or bytes that are no block: nothing more to learn.
      return false;
    }
  }
  return false;
}

/** The offset after a run of sub-blocks (each a length byte and that many bytes) and its zero terminator; `end` at most. */
async function skipSubBlocks(source: ByteSource, offset: number, end: number): Promise<number> {
  while (offset < end) {
    const [length] = await source.read(offset, 1);
    if (length === undefined) return end;
    offset += 1 + length;
    if (length === 0) return offset;
  }
  return end;
}
