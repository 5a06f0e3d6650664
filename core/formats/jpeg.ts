import { startsWithBytes } from '../bytes.ts';
import type { FormatInfo } from '../format.ts';

export const jpeg = {
  id: 'jpeg',
  label: 'JPG',
  extension: 'jpg',
  extensionAliases: ['jpeg'],
  mimeType: 'image/jpeg',
  mimeSubtypes: ['jpeg', 'jpg'],
  matches: (head) => startsWithBytes(head, [0xff, 0xd8, 0xff]),
  quality: { levels: 100, lookPredictor: 'tiles' },
  alpha: false,
  exif: true,
  canvasEncoder: true,
  rowsEncoder: true,
  wasmEncoderPays: true,
  scaledDecode: true,
  /**
   * jpegli (wasm/jpegli), 4:2:0, its progressive scan script. At the browser encoder's look it makes smaller files
   * than mozjpeg (the encoder before jpegli) in a tenth of its time; 4:4:4 cost more bytes at every setting, and
   * sequential saved little time for more bytes (docs/decisions/encoder-settings.md). The quality is jpegliQuality's (wasm/jpeg/options.ts).
   */
  optimisedOptions: { subsampling: '420', progressiveLevel: 2 },
  /** jpegli's heap: 5.0 bytes a pixel on a 12 MP photo, 6.0 on 3 MP (`npm run bench:heaps`; the pixels come 1 MB of rows at a time). */
  encoderHeapBytesPerPixel: 6,
} as const satisfies FormatInfo<'jpeg'>;
