import type { SourceFormat } from '../../core/formats.ts';

/** Bytes of a string, one per character (Latin-1). */
export const latin1 = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));
export const u16be = (value: number): number[] => [(value >>> 8) & 0xff, value & 0xff];
export const u24le = (value: number): number[] => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
export const u32be = (value: number): number[] => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
export const u16le = (value: number): number[] => [value & 0xff, (value >>> 8) & 0xff];
export const u32le = (value: number): number[] => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];

/** An ISO-BMFF box: size, type, payload. */
export function box(type: string, payload: number[]): number[] {
  return [...u32be(8 + payload.length), ...latin1(type), ...payload];
}

/** An ISO-BMFF ftyp box with the given major and compatible brands. */
export function ftyp(major: string, compatible: string[]): number[] {
  return box('ftyp', latin1([major, '\0\0\0\0', ...compatible].join('')));
}

/**
 * The leading bytes of an image of each format with the given stored size, as encoders write them: enough for the
 * signature and the dimensions (JPEG: SOI, JFIF APP0, SOF0; PNG: signature and IHDR; WebP: RIFF and VP8X; AVIF:
 * ftyp, then meta → iprp → ipco → ispe), not a decodable image.
 */
export function headerOf(format: SourceFormat, width: number, height: number): number[] {
  switch (format) {
    case 'jpeg':
      const start = [0xff, 0xd8];
      const jfif = [0xff, 0xe0, 0x00, 0x10, ...latin1('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
      const sof0 = [0xff, 0xc0, 0x00, 0x11, 8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
      return [...start, ...jfif, ...sof0];
    case 'png':
      return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...u32be(13), ...latin1('IHDR'), ...u32be(width), ...u32be(height), 8, 6, 0, 0, 0, 0, 0, 0, 0];
    case 'webp': {
      const vp8x = [...latin1('VP8X'), 10, 0, 0, 0, 0, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)];
      return [...latin1('RIFF'), 4 + vp8x.length, 0, 0, 0, ...latin1('WEBP'), ...vp8x];
    }
    case 'avif':
    case 'heic': {
      const ispe = box('ispe', [0, 0, 0, 0, ...u32be(width), ...u32be(height)]);
      const meta = box('meta', [0, 0, 0, 0, ...box('iprp', box('ipco', ispe))]);
      // As libavif and an iPhone write their ftyp.
      return [...(format === 'avif' ? ftyp('avif', ['mif1', 'miaf']) : ftyp('heic', ['mif1', 'heic'])), ...meta];
    }
    case 'gif':
      return [...latin1('GIF89a'), ...u16le(width), ...u16le(height), 0, 0, 0];
    case 'jxl': {
      // A bare codestream with a SizeHeader of explicit dimensions (div8 = 0, then 2-bit selectors for 30-bit sizes).
      return jxlCodestream(width, height);
    }
    case 'tiff': {
      // Little-endian, the directory right after the header: width, height (LONG), no compression; no next page.
      const entry = (tag: number, type: number, value: number) => [...u16le(tag), ...u16le(type), ...u32le(1), ...u32le(value)];
      return [...latin1('II'), 42, 0, ...u32le(8), ...u16le(3), ...entry(256, 4, width), ...entry(257, 4, height), ...entry(259, 3, 1), ...u32le(0)];
    }
    case 'bmp': {
      // BITMAPFILEHEADER, then a BITMAPINFOHEADER (40 bytes) of a 24-bit image stored bottom-up.
      const dib = [...u32le(40), ...u32le(width), ...u32le(height), ...u16le(1), ...u16le(24), ...u32le(0), ...u32le(0), ...u32le(2835), ...u32le(2835), ...u32le(0), ...u32le(0)];
      return [...latin1('BM'), ...u32le(14 + dib.length), 0, 0, 0, 0, ...u32le(14 + dib.length), ...dib];
    }
  }
}

/**
 * A JPEG XL codestream's first bytes: the signature FF 0A, then the SizeHeader written bit by bit, least significant
 * first: small = 0, then height − 1 and (ratio 0) width − 1, each as a 2-bit selector and 9, 13, 18 or 30 bits.
 */
function jxlCodestream(width: number, height: number): number[] {
  const bits: number[] = [];
  const put = (value: number, count: number) => {
    for (let i = 0; i < count; i++) bits.push((value >>> i) & 1);
  };
  const u32 = (value: number) => {
    const widths = [9, 13, 18, 30];
    const selector = widths.findIndex((w) => value < 2 ** w);
    put(selector, 2);
    put(value, widths[selector]!);
  };
  put(0, 1);
  u32(height - 1);
  put(0, 3);
  u32(width - 1);
  const bytes = [0xff, 0x0a];
  for (let i = 0; i < bits.length; i += 8) bytes.push(bits.slice(i, i + 8).reduce((byte, bit, j) => byte | (bit << j), 0));
  return [...bytes, 0, 0, 0, 0];
}

/** Leading bytes of a 400 × 300 image in each format, for tests that need a file's head but not a decodable image. */
export const HEADS: Record<SourceFormat, number[]> = {
  jpeg: headerOf('jpeg', 400, 300),
  png: headerOf('png', 400, 300),
  webp: headerOf('webp', 400, 300),
  avif: headerOf('avif', 400, 300),
  heic: headerOf('heic', 400, 300),
  jxl: headerOf('jxl', 400, 300),
  tiff: headerOf('tiff', 400, 300),
  gif: headerOf('gif', 400, 300),
  bmp: headerOf('bmp', 400, 300),
};

/** A Blob of `size` bytes that starts with `head` and is padded with zeros. */
export function blobOf(head: readonly number[], size: number, type: string): Blob {
  const bytes = new Uint8Array(size);
  bytes.set(head.slice(0, size));
  return new Blob([bytes], { type });
}
