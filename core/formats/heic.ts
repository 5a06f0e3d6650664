import { ftypBrands } from '../bytes.ts';
import type { SourceFormatInfo } from '../format.ts';

/** The brands of HEIF files coded in HEVC: an iPhone's photos (heic), 10-bit and 4:2:2 (heix), sequences and bursts. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

/**
 * HEIC, as a source only: Safari decodes it; elsewhere libheif (with libde265) in WebAssembly does, loaded only when
 * such a file is converted (docs/decisions/source-formats.md).
 */
export const heic = {
  id: 'heic',
  label: 'HEIC',
  extension: 'heic',
  extensionAliases: ['heif', 'hif'],
  mimeType: 'image/heic',
  mimeSubtypes: ['heic', 'heif', 'heic-sequence', 'heif-sequence'],
  matches: (head) => ftypBrands(head).some((brand) => HEIC_BRANDS.has(brand)),
  alpha: true,
  scaledDecode: false,
  /** libheif's heap: the file, the YCbCr planes (16-bit for 10-bit files) and the RGBA it converts to; 5.9 bytes a pixel over its 17 MB start for a 3 MP file, measured in Node. */
  decoderBytesPerPixel: 12,
} as const satisfies SourceFormatInfo<'heic'>;
