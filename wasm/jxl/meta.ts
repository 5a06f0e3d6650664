import type { EncodeOptions } from '@jsquash/jxl/meta';
import { startsWithBytes } from '../../core/bytes.ts';
import type { FormatInfo } from '../../core/format.ts';

/** A bare JPEG XL codestream's signature. */
const CODESTREAM = [0xff, 0x0a];
/** The JPEG XL container's signature box ("JXL ", then CR LF 0x87 LF). */
export const JXL_CONTAINER_SIGNATURE = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

/**
 * JPEG XL, read and written by libjxl in WebAssembly (`@jsquash/jxl`, Apache-2.0), Safari's own decoder where it
 * has one; both loaded only when a JPEG XL is converted, previewed or written (docs/decisions/source-formats.md,
 * encoder-settings.md). No browser encodes it from a canvas.
 */
export const jxl = {
  id: 'jxl',
  label: 'JPEG XL',
  extension: 'jxl',
  extensionAliases: [],
  mimeType: 'image/jxl',
  mimeSubtypes: ['jxl'],
  matches: (head) => startsWithBytes(head, CODESTREAM) || startsWithBytes(head, JXL_CONTAINER_SIGNATURE),
  // Not measured: libjxl's VarDCT quantises block by block, as jpegli does.
  quality: { levels: 100, losslessAtMax: true, lookPredictor: 'tiles' },
  alpha: true,
  exif: true,
  canvasEncoder: false,
  rowsEncoder: false,
  wasmEncoderPays: true,
  scaledDecode: false,
  /** libjxl's heap (its float image, and the RGBA it hands back): 31.9 bytes a pixel over its 16 MB start, a 3 MP file in Node. */
  decoderBytesPerPixel: 32,
  /**
   * Effort 5 with "Optimised compression" on: on the corpus's photographs, a fifth fewer bytes than effort 4 at an
   * equal SSIMULACRA2 score, in six times its time; effort 7, libjxl's default, took twice as long again for no fewer
   * (`npm run bench:encoders -- --look jxl`, docs/decisions/encoder-settings.md). Off, FAST_EFFORT.
   */
  optimisedOptions: { effort: 5 },
  /**
   * libjxl's heap, the same at every effort (it holds the whole image as float planes), per pixel of a 3 MP photo; a
   * 12 MP one's encode holds over a GB (`npm run bench:heaps`, docs/decisions/memory-budget.md).
   */
  encoderHeapBytesPerPixel: 110,
} as const satisfies FormatInfo<'jxl', Partial<EncodeOptions>>;

/** libjxl's effort with "Optimised compression" off: efforts 3 and 4 took the same time for the same bytes. */
export const FAST_EFFORT = 4;

/**
 * What the app hands libjxl for the slider's quality (0–1): lossless at 100 % (`losslessAtMax`), else libjxl's own
 * quality scale, which at the slider's 80 looks about as the browser's JPEG at 80 does (the quality the bench found
 * for that look: median 82, most photos 76–84); the effort as "Optimised compression" says (`thorough`).
 */
export function libjxlOptions(quality: number, { thorough }: { thorough: boolean }): Partial<EncodeOptions> {
  const effort = thorough ? jxl.optimisedOptions.effort : FAST_EFFORT;
  return quality >= 1 ? { effort, lossless: true, quality: 100 } : { effort, quality: Math.max(1, Math.round(quality * 100)) };
}
