import type { EncodeOptions } from '@jsquash/webp/meta';
import { ascii } from '../../core/bytes';
import type { FormatInfo } from '../../core/format';

export const webp = {
  id: 'webp',
  label: 'WebP',
  extension: 'webp',
  extensionAliases: [],
  mimeType: 'image/webp',
  mimeSubtypes: ['webp'],
  matches: (head) => head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP',
  // libwebp takes a float quality, which steps its per-segment quantizers more finely than whole percents.
  quality: { levels: 1000 },
  alpha: true,
  exif: true,
  canvasEncoder: true,
  scaledDecode: false,
  /**
   * libwebp at method 5: the bytes of method 6 (0.88× the browser's method-3 output at equal SSIM on the bench's
   * inputs) in a little over half its time; method 4 and below save nothing (`npm run bench:encoders`, docs/decisions).
   */
  optimisedOptions: { method: 5 },
  encoderHeapBytesPerPixel: 14,
} as const satisfies FormatInfo<'webp', Partial<EncodeOptions>>;
