import { startsWithBytes } from '../../core/bytes';
import type { SourceFormatInfo } from '../../core/format';

/** A bare JPEG XL codestream's signature. */
const CODESTREAM = [0xff, 0x0a];
/** The JPEG XL container's signature box ("JXL ", then CR LF 0x87 LF). */
const CONTAINER = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

/**
 * JPEG XL, as a source only for now: Safari decodes it; elsewhere libjxl's decoder in WebAssembly (`@jsquash/jxl`,
 * Apache-2.0) does, loaded only when such a file is converted or previewed (docs/decisions/source-formats.md).
 */
export const jxl = {
  id: 'jxl',
  label: 'JPEG XL',
  extension: 'jxl',
  extensionAliases: [],
  mimeType: 'image/jxl',
  mimeSubtypes: ['jxl'],
  matches: (head) => startsWithBytes(head, CODESTREAM) || startsWithBytes(head, CONTAINER),
  alpha: true,
  scaledDecode: false,
  /** libjxl's heap (its float image, and the RGBA it hands back): 31.9 bytes a pixel over its 16 MB start, a 3 MP file in Node. */
  decoderBytesPerPixel: 32,
} as const satisfies SourceFormatInfo<'jxl'>;
