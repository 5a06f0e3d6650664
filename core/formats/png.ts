import { startsWithBytes } from '../bytes.ts';
import type { FormatInfo } from '../format.ts';

export const png = {
  id: 'png',
  label: 'PNG',
  extension: 'png',
  extensionAliases: [],
  mimeType: 'image/png',
  mimeSubtypes: ['png'],
  matches: (head) => startsWithBytes(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  quality: null,
  alpha: true,
  exif: true,
  canvasEncoder: true,
  rowsEncoder: false,
  wasmEncoderPays: true,
  scaledDecode: false,
  /** oxipng at level 2: its default, and the level Squoosh offers first. */
  optimisedOptions: { level: 2, interlace: false, optimiseAlpha: true },
  encoderHeapBytesPerPixel: 28,
} as const satisfies FormatInfo<'png'>;
