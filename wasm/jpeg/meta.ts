import type { EncodeOptions } from '@jsquash/jpeg/meta';
import { startsWithBytes } from '../../core/bytes';
import type { FormatInfo } from '../../core/format';

export const jpeg = {
  id: 'jpeg',
  label: 'JPG',
  extension: 'jpg',
  extensionAliases: ['jpeg'],
  mimeType: 'image/jpeg',
  mimeSubtypes: ['jpeg', 'jpg'],
  matches: (head) => startsWithBytes(head, [0xff, 0xd8, 0xff]),
  quality: { levels: 100 },
  alpha: false,
  exif: true,
  canvasEncoder: true,
  scaledDecode: true,
  /**
   * mozjpeg with the browser encoder's quantisation tables (JPEG Annex K) and 4:2:0 chroma, so a quality number
   * means the same picture either way and "optimised" only saves bytes (trellis quantisation, optimised Huffman
   * tables). mozjpeg's own defaults (ImageMagick tables, 4:2:2 from quality 80) made smaller files at a lower SSIM,
   * which is not a saving. Baseline, not progressive: mozjpeg's progressive scan search took 40% of the time for
   * 3% of the bytes (docs/decisions).
   */
  optimisedOptions: { quant_table: 0, auto_subsample: false, chroma_subsample: 2, progressive: false },
  encoderHeapBytesPerPixel: 17,
} as const satisfies FormatInfo<'jpeg', Partial<EncodeOptions>>;
