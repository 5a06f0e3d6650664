import type { ByteSource } from '../../core/byte-source.ts';
import type { HeaderRead } from '../../core/format.ts';
import { isoBoxAt, u16be, u32be, type IsoBox } from '../../core/bytes.ts';
import type { Size } from '../../core/geometry.ts';
import { orientationOfHeif, UPRIGHT, type HeifTransform, type Orientation } from '../../core/orientation.ts';

/**
 * An AVIF's displayed-before-rotation size and rotation, from its ISO-BMFF boxes: the primary item (`pitm`) and the
 * properties `ipma` associates with it (`ispe`, `irot`, `imir`). The first `ispe` in the file may be a grid tile's, an alpha
 * plane's or a thumbnail's; the primary item's is the image's. The top-level boxes are walked by their headers, so a
 * `meta` after a large `mdat` (a legal order some muxers write) is found without reading the pixels. A sequence
 * without a `meta` box (`avis` from some muxers) gives its first track's size instead.
 */

/** A `meta` box larger than this is not one any encoder writes (item tables and small properties only). */
const MAX_META_BYTES = 4 * 1024 * 1024;
/** Top-level boxes walked before giving up. */
const MAX_TOP_LEVEL_BOXES = 1024;

type Box = IsoBox;

/** The box whose header is at `offset` in `bytes`, or null when the header is cut or the box runs past `limit`. */
function boxAt(bytes: Uint8Array, offset: number, limit: number): Box | null {
  const box = isoBoxAt(bytes, offset, limit);
  return box && box.end <= limit ? box : null;
}

/** The boxes inside `from..to` of `bytes`, in order, up to the first one that does not fit. */
function children(bytes: Uint8Array, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  for (let offset = from, box = boxAt(bytes, offset, to); box; offset = box.end, box = boxAt(bytes, offset, to)) boxes.push(box);
  return boxes;
}

/** A top-level box of a file held in memory, by type: its content's range. */
export function topLevelBox(bytes: Uint8Array, type: string): { start: number; end: number } | null {
  return children(bytes, 0, bytes.length).find((box) => box.type === type) ?? null;
}

const child = (bytes: Uint8Array, parent: Box, type: string, fullBox = false) =>
  children(bytes, parent.start + (fullBox ? 4 : 0), parent.end).find((box) => box.type === type);

/** `pitm`: the primary item's id. */
function primaryItem(bytes: Uint8Array, meta: Box): number | null {
  const pitm = child(bytes, meta, 'pitm', true);
  if (!pitm) return null;
  return bytes[pitm.start] === 0 ? u16be(bytes, pitm.start + 4) : u32be(bytes, pitm.start + 4);
}

/** `ipma`: the 1-based `ipco` indexes of the properties associated with `item`, or null when it lists none. */
function propertyIndexes(bytes: Uint8Array, ipma: Box, item: number): number[] | null {
  const version = bytes[ipma.start] ?? 0;
  const wideIndexes = ((bytes[ipma.start + 3] ?? 0) & 1) === 1;
  let at = ipma.start + 4;
  const entries = u32be(bytes, at);
  at += 4;
  for (let entry = 0; entry < entries && at < ipma.end; entry++) {
    const id = version < 1 ? u16be(bytes, at) : u32be(bytes, at);
    at += version < 1 ? 2 : 4;
    const count = bytes[at] ?? 0;
    at += 1;
    const indexes: number[] = [];
    for (let i = 0; i < count; i++, at += wideIndexes ? 2 : 1) indexes.push(wideIndexes ? u16be(bytes, at) & 0x7fff : (bytes[at] ?? 0) & 0x7f);
    if (id === item) return indexes;
  }
  return null;
}

export interface AvifHeader {
  size: Size;
  /** What the primary item's `irot` and `imir`, in the order associated, do to show it. */
  orientation: Orientation;
}

/** Reads the size and rotation from a `meta` box's bytes. */
function fromMeta(bytes: Uint8Array, meta: Box): AvifHeader | null {
  const iprp = child(bytes, meta, 'iprp', true);
  const ipco = iprp && child(bytes, iprp, 'ipco');
  if (!iprp || !ipco) return null;
  const properties = children(bytes, ipco.start, ipco.end);
  const ipma = child(bytes, iprp, 'ipma');
  const item = primaryItem(bytes, meta);
  const indexes = ipma && item !== null ? propertyIndexes(bytes, ipma, item) : null;
  // Without an association for the primary item, the first size in the file is the best guess (image-size's too).
  const mine = indexes ? indexes.map((index) => properties[index - 1]).filter((box): box is Box => box !== undefined) : properties;
  const ispe = mine.find((box) => box.type === 'ispe');
  if (!ispe || ispe.end - ispe.start < 12) return null;
  const size = { width: u32be(bytes, ispe.start + 4), height: u32be(bytes, ispe.start + 8) };
  const transforms = mine.flatMap((box): HeifTransform[] => {
    const value = bytes[box.start] ?? 0;
    return box.type === 'irot' ? [{ irot: value & 3 }] : box.type === 'imir' ? [{ imir: value & 1 }] : [];
  });
  return { size, orientation: orientationOfHeif(transforms) };
}

/** A sequence's first track's `tkhd` size (16.16 fixed point), when the file has no `meta` to read. */
function fromMovie(bytes: Uint8Array, moov: Box): AvifHeader | null {
  const trak = child(bytes, moov, 'trak');
  const tkhd = trak && child(bytes, trak, 'tkhd');
  if (!tkhd) return null;
  const sizeAt = tkhd.start + (bytes[tkhd.start] === 1 ? 88 : 76);
  if (sizeAt + 8 > tkhd.end) return null;
  return { size: { width: u32be(bytes, sizeAt) >>> 16, height: u32be(bytes, sizeAt + 4) >>> 16 }, orientation: UPRIGHT };
}

export async function readAvifHeader(source: ByteSource): Promise<AvifHeader | null> {
  let movie: Box | null = null;
  let movieBytes: Uint8Array = new Uint8Array(0);
  for (let offset = 0, boxes = 0; offset < source.size && boxes < MAX_TOP_LEVEL_BOXES; boxes++) {
    const head = await source.read(offset, 16);
    const box = boxAt(head, 0, source.size - offset);
    if (!box) return null;
    if ((box.type === 'meta' || (box.type === 'moov' && !movie)) && box.end - box.start <= MAX_META_BYTES) {
      const bytes = await source.read(offset, box.end);
      if (box.type === 'meta') return fromMeta(bytes, box);
      [movie, movieBytes] = [box, bytes];
    }
    offset += box.end;
  }
  return movie && fromMovie(movieBytes, movie);
}

/** The registry's reader (core/format.ts). */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  return readAvifHeader(source);
}
