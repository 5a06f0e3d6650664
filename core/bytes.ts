/** Bounds-safe readers over file bytes: a read past the end gives 0, never undefined or a throw. */

export function ascii(bytes: Uint8Array, start: number, length: number): string {
  // One character at a time: spreading a long run into fromCharCode's arguments overflows a worker's smaller stack.
  let text = '';
  for (const byte of bytes.subarray(start, start + length)) text += String.fromCharCode(byte);
  return text;
}

/** Whether `pattern` occurs in `bytes[from..to)`. */
export function containsBytes(bytes: Uint8Array, pattern: readonly number[], from = 0, to = bytes.length): boolean {
  const last = Math.min(to, bytes.length) - pattern.length;
  for (let at = bytes.indexOf(pattern[0]!, from); at !== -1 && at <= last; at = bytes.indexOf(pattern[0]!, at + 1)) {
    if (startsWithBytes(bytes, pattern, at)) return true;
  }
  return false;
}

export function startsWithBytes(bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean {
  return prefix.every((value, i) => bytes[offset + i] === value);
}

export function u16be(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] ?? 0) << 8) | (bytes[offset + 1] ?? 0);
}

export function u16le(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8);
}

export function u32be(bytes: Uint8Array, offset: number): number {
  return (((bytes[offset] ?? 0) << 24) | ((bytes[offset + 1] ?? 0) << 16) | ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0)) >>> 0;
}

export function u32le(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8) | ((bytes[offset + 2] ?? 0) << 16) | ((bytes[offset + 3] ?? 0) << 24)) >>> 0;
}

/** Size of a leading ISO-BMFF `ftyp` box (AVIF, HEIC, MP4), or 0 when the bytes do not start with one. */
export function ftypBoxSize(bytes: Uint8Array): number {
  if (bytes.length < 8 || ascii(bytes, 4, 4) !== 'ftyp') return 0;
  return u32be(bytes, 0);
}

/** The major and compatible brands of a leading `ftyp` box, as far as `bytes` holds them. */
export function ftypBrands(bytes: Uint8Array): string[] {
  const boxSize = ftypBoxSize(bytes);
  if (boxSize < 16) return [];
  const end = Math.min(boxSize, bytes.length);
  // The major brand (8..12), the minor version (12..16), then compatible brands.
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, 4));
  return brands;
}

/** An ISO-BMFF box (AVIF, HEIC, the JPEG XL container): its type, and where its content starts and ends in the bytes read. */
export interface IsoBox {
  type: string;
  start: number;
  end: number;
}

/**
 * The box whose header is at `offset` in `bytes` (a 32-bit size, or 1 and a 64-bit one, or 0: to `end`), or null when
 * its header is cut or claims less than itself. Its `end` may lie past the bytes held: callers that need it whole
 * check.
 */
export function isoBoxAt(bytes: Uint8Array, offset: number, end: number): IsoBox | null {
  if (offset + 8 > bytes.length) return null;
  let size = u32be(bytes, offset);
  let headerLength = 8;
  if (size === 1) {
    if (offset + 16 > bytes.length) return null;
    size = u32be(bytes, offset + 8) * 2 ** 32 + u32be(bytes, offset + 12);
    headerLength = 16;
  } else if (size === 0) {
    size = end - offset;
  }
  if (size < headerLength) return null;
  return { type: ascii(bytes, offset + 4, 4), start: offset + headerLength, end: offset + size };
}

/** The parts, one after another, in a new array. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export const be16 = (v: number) => new Uint8Array([(v >> 8) & 0xff, v & 0xff]);
export const be32 = (v: number) => new Uint8Array([(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
export const le32 = (v: number) => new Uint8Array([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]);
export const le24 = (v: number) => new Uint8Array([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff]);

/** A string of Latin-1 characters (chunk types, FourCCs, marks searched for) as bytes. */
export const latin1 = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * CRC-32 (ISO 3309, as zip and PNG reckon it), carried on over chunks: start from 0, pass each chunk with the value
 * before it.
 */
export function crc32(chunk: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < chunk.length; i++) c = CRC_TABLE[(c ^ chunk[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
