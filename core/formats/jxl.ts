import { startsWithBytes } from '../bytes.ts';
import type { FormatInfo } from '../format.ts';

/** A bare JPEG XL codestream's signature. */
const CODESTREAM = [0xff, 0x0a];
/** The JPEG XL container's signature box ("JXL ", then CR LF 0x87 LF). */
export const JXL_CONTAINER_SIGNATURE = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

/**
 * JPEG XL, read by this app's build of libjxl in WebAssembly (wasm/jxl/build.sh, BSD-3) or Safari's own decoder where
 * it has one, and written by the same build; each loaded only when a JPEG XL is converted, previewed or written
 * (docs/decisions/source-formats.md, encoder-settings.md). No browser encodes it from a canvas.
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
  /**
   * libjxl's heap (its image, and the RGBA it hands back), its most: a lossy file with an alpha channel, 46–48 bytes a
   * pixel from 3 to 48 MP (an opaque lossy one 8–10, a lossless one 18–22; `npm run bench:heaps -- --only "jxl decode"`).
   * The header does not say which a file is, so a job counts the most.
   */
  decoderBytesPerPixel: 48,
  /**
   * Effort 5 with "Optimised compression" on: on the corpus's photographs, 0.43 of the browser JPEG's bytes at an equal
   * SSIMULACRA2 score against effort 4's 0.59, in six times its time; effort 7, libjxl's default, took 2.6 times as
   * long again for more (`npm run bench:encoders -- --look jxl`, docs/decisions/encoder-settings.md). Off, FAST_EFFORT.
   */
  optimisedOptions: { effort: 5 },
  /**
   * This app's libjxl build (wasm/jxl/build.sh) encodes a large picture a DC group (2048 × 2048) at a time: its heap
   * grows with the pixels up to one group, then by little more than the picture's own copy (4 bytes a pixel) and the
   * file (`npm run bench:heaps`, docs/decisions/memory-budget.md).
   */
  encoderHeapBytesPerPixel: 76,
  encoderHeapStreaming: { pixels: 2048 * 2048, bytesPerPixelBeyond: 6 },
} as const satisfies FormatInfo<'jxl'>;
