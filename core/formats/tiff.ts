import type { SourceFormatInfo } from '../format.ts';

/**
 * TIFF, as a source only: Safari decodes it; elsewhere UTIF (utif2, in JavaScript) does, loaded only when such a file
 * is converted (docs/decisions/source-formats.md). Classic TIFF, either byte order: "II*\0" or "MM\0*".
 */
export const tiff = {
  id: 'tiff',
  label: 'TIFF',
  extension: 'tiff',
  extensionAliases: ['tif'],
  mimeType: 'image/tiff',
  mimeSubtypes: ['tiff', 'tif', 'x-tiff'],
  matches: (head) => head.length >= 4 && ((head[0] === 0x49 && head[1] === 0x49 && head[2] === 42 && head[3] === 0) || (head[0] === 0x4d && head[1] === 0x4d && head[2] === 0 && head[3] === 42)),
  alpha: true,
  scaledDecode: false,
  /** UTIF's arrays: the decoded samples (up to 8 bytes a pixel, 16-bit RGBA) and its RGBA copy of them. */
  decoderBytesPerPixel: 12,
} as const satisfies SourceFormatInfo<'tiff'>;
