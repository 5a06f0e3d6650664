import { ascii } from '../bytes.ts';
import type { FormatInfo } from '../format.ts';

export const webp = {
  id: 'webp',
  label: 'WebP',
  extension: 'webp',
  extensionAliases: [],
  mimeType: 'image/webp',
  mimeSubtypes: ['webp'],
  matches: (head) => head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP',
  // libwebp takes a float quality, which steps its per-segment quantizers more finely than whole percents.
  quality: { levels: 1000, lookPredictor: 'half' },
  alpha: true,
  exif: true,
  canvasEncoder: true,
  /**
   * At the browser encoder's look (SSIMULACRA2, twelve photographs) libwebp's WASM build at method 5 made 1.00× its
   * bytes, method 6 0.98×, for 1.7× the batch's time: the browser's encoder is libwebp already. So "optimised" WebP is
   * the browser's, and libwebp runs only where a browser cannot encode WebP (Safari).
   */
  rowsEncoder: false,
  wasmEncoderPays: false,
  scaledDecode: false,
  /** libwebp at method 5, where it runs (`npm run bench:encoders -- --look webp`, docs/decisions). */
  optimisedOptions: { method: 5 },
  encoderHeapBytesPerPixel: 14,
} as const satisfies FormatInfo<'webp'>;
