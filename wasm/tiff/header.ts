import type { ByteSource } from '../../core/byte-source.ts';
import type { HeaderRead } from '../../core/format.ts';
import { asOrientation } from '../../core/orientation.ts';

const WIDTH = 256;
const HEIGHT = 257;
const NEW_SUBFILE_TYPE = 254;
const ORIENTATION = 274;
const SHORT = 3;
const LONG = 4;
/** Directories walked for the page count: a scanner's multi-page file has a few, a hostile one a loop. */
const MAX_DIRECTORIES = 64;

/** One image file directory's tags of interest, and where the next directory is (0: none). */
interface Directory {
  width: number;
  height: number;
  /** NewSubfileType's bit 0: a reduced-resolution copy (a preview) of another page, not a page. */
  reduced: boolean;
  orientation: number;
  next: number;
}

/**
 * A TIFF's first page's size and EXIF-style orientation (5–8 turn it a quarter), and whether it has more pages. Its
 * directories can sit anywhere, the end of the file included (libtiff writes them after the pixels), so they are
 * read where the header points, a few bytes each: image-size's TIFF reader wants the file read up to them.
 */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const head = await source.read(0, 8);
  if (head.length < 8) return null;
  const little = head[0] === 0x49;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const firstAt = view.getUint32(4, little);
  const first = await directoryAt(source, firstAt, little);
  if (!first || first.width === 0 || first.height === 0) return null;
  let pages = 1;
  const seen = new Set<number>([firstAt]);
  for (let next = first.next, walked = 0; next !== 0 && walked < MAX_DIRECTORIES && !seen.has(next); walked++) {
    seen.add(next);
    const directory = await directoryAt(source, next, little);
    if (!directory) break;
    if (!directory.reduced) pages++;
    next = directory.next;
  }
  return { size: { width: first.width, height: first.height }, orientation: asOrientation(first.orientation), ...(pages > 1 ? { pages } : {}) };
}

async function directoryAt(source: ByteSource, offset: number, little: boolean): Promise<Directory | null> {
  if (offset < 8 || offset + 2 > source.size) return null;
  const countBytes = await source.read(offset, 2);
  if (countBytes.length < 2) return null;
  const count = new DataView(countBytes.buffer, countBytes.byteOffset, 2).getUint16(0, little);
  const bytes = await source.read(offset + 2, count * 12 + 4);
  if (bytes.length < count * 12 + 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const directory: Directory = { width: 0, height: 0, reduced: false, orientation: 1, next: view.getUint32(count * 12, little) };
  for (let i = 0; i < count; i++) {
    const at = i * 12;
    const [tag, type, values] = [view.getUint16(at, little), view.getUint16(at + 2, little), view.getUint32(at + 4, little)];
    if (values !== 1 || (type !== SHORT && type !== LONG)) continue;
    const value = type === SHORT ? view.getUint16(at + 8, little) : view.getUint32(at + 8, little);
    if (tag === WIDTH) directory.width = value;
    else if (tag === HEIGHT) directory.height = value;
    else if (tag === NEW_SUBFILE_TYPE) directory.reduced = (value & 1) === 1;
    else if (tag === ORIENTATION) directory.orientation = value;
  }
  return directory;
}
