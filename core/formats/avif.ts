import { ftypBrands } from '../bytes.ts';
import type { FormatInfo } from '../format.ts';

const AVIF_BRANDS = new Set(['avif', 'avis']);

export const avif = {
  id: 'avif',
  label: 'AVIF',
  extension: 'avif',
  extensionAliases: [],
  mimeType: 'image/avif',
  mimeSubtypes: ['avif'],
  matches: (head) => ftypBrands(head).some((brand) => AVIF_BRANDS.has(brand)),
  // Not measured: libaom's rate control looks at the whole picture, as libwebp's does.
  quality: { levels: 100, lookPredictor: 'half' },
  alpha: true,
  exif: false,
  // No browser encodes AVIF from a canvas (toBlob answers with PNG), so this is always libavif.
  canvasEncoder: false,
  rowsEncoder: false,
  wasmEncoderPays: true,
  scaledDecode: false,
  /**
   * libavif at speed 8: in the app's batch 1.39× native avifenc's time at speed 6 for the same bytes and an SSIM
   * 0.0002 lower (speed 6 took 3.2×, speed 7 2.1×; `npm run bench:encoders`, docs/decisions).
   */
  optimisedOptions: { speed: 8 },
  encoderHeapBytesPerPixel: 34,
} as const satisfies FormatInfo<'avif'>;
