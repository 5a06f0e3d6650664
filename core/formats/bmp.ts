import { u32le } from '../bytes.ts';
import type { SourceFormatInfo } from '../format.ts';

/** Sizes of the DIB headers a BMP may carry: OS/2 1.x and 2.x, BITMAPINFOHEADER, its V2 and V3 extensions, V4, V5. */
const DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/** BMP, as a source only: every browser decodes it, none encodes it. "BM" alone is too short a signature: the DIB header's size must be one of the known ones. */
export const bmp = {
  id: 'bmp',
  label: 'BMP',
  extension: 'bmp',
  extensionAliases: ['dib'],
  mimeType: 'image/bmp',
  mimeSubtypes: ['bmp', 'x-bmp', 'x-ms-bmp'],
  matches: (head) => head.length >= 18 && head[0] === 0x42 && head[1] === 0x4d && DIB_HEADER_SIZES.has(u32le(head, 14)),
  // 32-bit BMPs (BITFIELDS, V4, V5) carry alpha.
  alpha: true,
  scaledDecode: false,
} as const satisfies SourceFormatInfo<'bmp'>;
