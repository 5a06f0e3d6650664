import { crc32 } from '../core/bytes.ts';

/**
 * A zip of already-compressed files, each stored as it is (PKWARE's APPNOTE 6.3.10), built as a Blob of headers and
 * the files' own Blobs: a Blob made of Blobs refers to their bytes rather than copying them, so no file is held twice
 * and no archive-sized buffer exists. A file whose CRC-32 the worker that made it reckoned is not read at all (a
 * thousand outputs' worth of reads at a batch's end); any other is read through once, a chunk at a time, for it.
 *
 * Zip64 where an archive needs it (a thousand photos as PNG pass 4 GB): an entry whose offset or size does not fit
 * 32 bits has its Zip64 extra field, and an archive of more than 65,535 entries, or whose central directory lies past
 * 4 GB, has the Zip64 end records. fflate's `Zip`, used before, writes neither (it wraps the offsets), and client-zip
 * leaves the entry count at 65,535 without the Zip64 end record, which Info-ZIP's `unzip` rejects.
 */

/** One file of the archive: its name inside it (UTF-8, '/' between folders) and its bytes. */
export interface StoredEntry {
  name: string;
  file: Blob;
  /** Its CRC-32 where the caller knows it: the file is then not read. */
  crc32?: number | null;
}

export interface ZipOptions {
  /** Reads a Blob a chunk at a time. */
  chunks: (blob: Blob) => AsyncIterable<Uint8Array>;
  /** When the files were made: each entry's modification time. */
  date?: Date;
  /**
   * From which offset or size a value takes a Zip64 field: 0xFFFFFFFF, the format's own limit. A test passes a small
   * one to walk the Zip64 fields without writing 4 GB.
   */
  zip64From?: number;
  /** From how many entries the archive takes the Zip64 end records: 0xFFFF. */
  zip64Entries?: number;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END = 0x06054b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
/** Bit 11: the name is UTF-8. */
const UTF8_NAMES = 0x0800;
const VERSION_STORED = 10;
const VERSION_ZIP64 = 45;

/** MS-DOS date and time, as a zip's headers record them (local time, two-second steps, from 1980). */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, Math.min(2107, date.getFullYear()));
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** A little-endian record written field by field. */
class Record {
  readonly bytes: Uint8Array<ArrayBuffer>;
  private readonly view: DataView;
  private at = 0;
  constructor(length: number) {
    this.bytes = new Uint8Array(length);
    this.view = new DataView(this.bytes.buffer);
  }
  u16(value: number): this {
    this.view.setUint16(this.at, value, true);
    this.at += 2;
    return this;
  }
  u32(value: number): this {
    this.view.setUint32(this.at, value, true);
    this.at += 4;
    return this;
  }
  u64(value: number): this {
    this.view.setBigUint64(this.at, BigInt(value), true);
    this.at += 8;
    return this;
  }
  raw(bytes: Uint8Array): this {
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }
}

interface Written {
  name: Uint8Array;
  crc: number;
  size: number;
  offset: number;
}

/** The Zip64 extra field of the values given (sizes, then the offset), or none. */
function zip64Extra(values: readonly number[]): Uint8Array {
  if (values.length === 0) return new Uint8Array(0);
  const extra = new Record(4 + 8 * values.length).u16(ZIP64_EXTRA).u16(8 * values.length);
  for (const value of values) extra.u64(value);
  return extra.bytes;
}

/** A file's CRC-32, read through a chunk at a time. */
async function crcOf(file: Blob, chunks: ZipOptions['chunks']): Promise<number> {
  let crc = 0;
  for await (const chunk of chunks(file)) crc = crc32(chunk, crc);
  return crc;
}

export async function storedZip(entries: readonly StoredEntry[], { chunks, date = new Date(), zip64From = 0xffffffff, zip64Entries = 0xffff }: ZipOptions): Promise<Blob> {
  const { time, day } = dosDateTime(date);
  const encoder = new TextEncoder();
  const parts: BlobPart[] = [];
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const crc = entry.crc32 ?? (await crcOf(entry.file, chunks));
    const name = encoder.encode(entry.name);
    const size = entry.file.size;
    const bigSize = size >= zip64From;
    // The local header's Zip64 field holds both sizes whenever either is too big (APPNOTE 4.5.3).
    const extra = zip64Extra(bigSize ? [size, size] : []);
    const header = new Record(30 + name.length + extra.length)
      .u32(LOCAL_HEADER)
      .u16(bigSize ? VERSION_ZIP64 : VERSION_STORED)
      .u16(UTF8_NAMES)
      .u16(0) // stored
      .u16(time)
      .u16(day)
      .u32(crc)
      .u32(bigSize ? 0xffffffff : size)
      .u32(bigSize ? 0xffffffff : size)
      .u16(name.length)
      .u16(extra.length)
      .raw(name)
      .raw(extra);
    parts.push(header.bytes, entry.file);
    written.push({ name, crc, size, offset });
    offset += header.bytes.length + size;
  }

  const centralStart = offset;
  for (const { name, crc, size, offset: at } of written) {
    const bigSize = size >= zip64From;
    const bigOffset = at >= zip64From;
    // In the central header the Zip64 field holds only the values too big for theirs, in this order.
    const extra = zip64Extra([...(bigSize ? [size, size] : []), ...(bigOffset ? [at] : [])]);
    const header = new Record(46 + name.length + extra.length)
      .u32(CENTRAL_HEADER)
      .u16((3 << 8) | VERSION_ZIP64) // made by: Unix, 4.5
      .u16(bigSize || bigOffset ? VERSION_ZIP64 : VERSION_STORED)
      .u16(UTF8_NAMES)
      .u16(0)
      .u16(time)
      .u16(day)
      .u32(crc)
      .u32(bigSize ? 0xffffffff : size)
      .u32(bigSize ? 0xffffffff : size)
      .u16(name.length)
      .u16(extra.length)
      .u16(0) // comment
      .u16(0) // disk
      .u16(0) // internal attributes
      .u32((0o100644 << 16) >>> 0) // a regular file, rw-r--r--
      .u32(bigOffset ? 0xffffffff : at)
      .raw(name)
      .raw(extra);
    parts.push(header.bytes);
    offset += header.bytes.length;
  }
  const centralSize = offset - centralStart;

  const count = written.length;
  const needsZip64 = count >= zip64Entries || centralStart >= zip64From || centralSize >= zip64From;
  if (needsZip64) {
    const zip64End = new Record(56)
      .u32(ZIP64_END)
      .u64(56 - 12) // the record's size after this field
      .u16((3 << 8) | VERSION_ZIP64)
      .u16(VERSION_ZIP64)
      .u32(0)
      .u32(0)
      .u64(count)
      .u64(count)
      .u64(centralSize)
      .u64(centralStart);
    const locator = new Record(20).u32(ZIP64_LOCATOR).u32(0).u64(offset).u32(1);
    parts.push(zip64End.bytes, locator.bytes);
  }
  const end = new Record(22)
    .u32(END)
    .u16(0)
    .u16(0)
    .u16(needsZip64 ? 0xffff : count)
    .u16(needsZip64 ? 0xffff : count)
    .u32(needsZip64 ? 0xffffffff : centralSize)
    .u32(needsZip64 ? 0xffffffff : centralStart)
    .u16(0);
  parts.push(end.bytes);
  return new Blob(parts, { type: 'application/zip' });
}
