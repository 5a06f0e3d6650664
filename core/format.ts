import type { Size } from './geometry.ts';
import type { Orientation } from './orientation.ts';

/**
 * What a source format is, as both threads see it: what intake recognises (signature, MIME types, extensions) and the
 * decoder needs. Every output format is one (FormatInfo); some formats are sources only (HEIC, TIFF, GIF,
 * BMP: the browser or a stand-in decoder reads them, nothing here writes them). One file per format in core/formats/, gathered in core/formats.ts.
 */
export interface SourceFormatInfo<Id extends string = string> {
  id: Id;
  /** What the UI calls it. */
  label: string;
  /** Of output files, and the first a source goes by. */
  extension: string;
  /** Other extensions files of this format go by (what the installed app offers to open: .jpeg too). */
  extensionAliases: readonly string[];
  mimeType: string;
  /** MIME subtypes accepted as this format at intake (image/jpg is a common alias). */
  mimeSubtypes: readonly string[];
  /** Whether a file's leading bytes announce this format. */
  matches: (head: Uint8Array) => boolean;
  /** Whether images of this format may carry transparency (an output without it is flattened onto the background colour). */
  alpha: boolean;
  /**
   * Whether the browser's decoder can decode it at a fraction of its size (JPEG, in the DCT, in eighths), so a photo
   * that will be resized down need not be decoded whole.
   */
  scaledDecode: boolean;
  /**
   * What the decoder that stands in for a browser without one holds per pixel of the image, rounded up: libheif's
   * WASM heap (which never shrinks while its worker lives), UTIF's arrays. Absent: every engine decodes it itself.
   * core/plan.ts counts it in a job's cost even where the browser decodes it (Safari): a phone's budget errs on the
   * side of fewer jobs at once.
   */
  decoderBytesPerPixel?: number;
}

/**
 * What one output format is, as both threads see it: a source format the app also writes. Its optimised options are
 * plain data here; the codec that takes them holds them to its own options type (wasm/codec.ts knownOptions).
 */
export interface FormatInfo<Id extends string = string> extends SourceFormatInfo<Id> {
  /** Null for lossless formats: no quality setting, and a target size cannot be reached by lowering it. */
  quality: {
    /** Distinct quality levels the encoder tells apart over (0, 1]: the target-size search bisects these. */
    levels: number;
    /** Whether the slider's top (100 %) writes a lossless file (JPEG XL's). */
    losslessAtMax?: boolean;
    /**
     * What Smart compression encodes to guess a quality's look cheaply (workers/pipeline/smart-quality.ts): `tiles`,
     * the image's view of full-resolution tiles, where the encoder works block by block and the tiles score as they do
     * in the whole encode (jpegli: within a point on the corpus); `half`, the whole image at half its size, where the
     * encoder analyses the whole picture first (libwebp: the tiles scored up to 20 points low, half size within 5).
     * AVIF's and JPEG XL's, measured the same way: docs/decisions/perceptual-score.md.
     */
    lookPredictor: 'tiles' | 'half';
  } | null;
  /** Whether EXIF can be written into this container. */
  exif: boolean;
  /** Whether a browser canvas may encode it (asked at run time); otherwise only the WASM encoder can. */
  canvasEncoder: boolean;
  /**
   * Whether "Optimised compression" runs the WASM encoder. False where it made no smaller file than the browser's own
   * encoder at an equal look (WebP: the browser's encoder is libwebp too), so the browser's runs either way, and the
   * WASM one only where the browser cannot encode the format (docs/decisions/encoder-settings.md).
   */
  wasmEncoderPays: boolean;
  /**
   * Whether that WASM encoder takes the image a strip of rows at a time as it goes (jpegli): a plain re-encode of a
   * source stored upright then reads the decoded frame's rows into it, with no copy of the whole picture (the plan's
   * 'rows' route).
   */
  rowsEncoder: boolean;
  /** Options of the WASM encoder that "Optimised compression" runs, merged over the codec's own defaults. */
  optimisedOptions: Readonly<object>;
  /**
   * What that encoder's heap grows to, per pixel it encodes, rounded up (`npm run bench:heaps`): a WASM heap never
   * shrinks while its worker lives, so a job using the encoder holds it (core/plan.ts counts it in the job's cost).
   */
  encoderHeapBytesPerPixel: number;
  /**
   * Where the encoder takes a large picture a part at a time (libjxl's streaming encode, a DC group of 2048 × 2048),
   * its heap grows at `encoderHeapBytesPerPixel` for the first `pixels` only, and by `bytesPerPixelBeyond` a pixel
   * after them (the picture's own copy, the file): encoderHeapBytes.
   */
  encoderHeapStreaming?: { pixels: number; bytesPerPixelBeyond: number };
}

/** What a format's WASM encoder's heap grows to for a picture of `pixels` (FormatInfo.encoderHeapBytesPerPixel). */
export function encoderHeapBytes(format: Pick<FormatInfo, 'encoderHeapBytesPerPixel' | 'encoderHeapStreaming'>, pixels: number): number {
  const streaming = format.encoderHeapStreaming;
  if (!streaming || pixels <= streaming.pixels) return format.encoderHeapBytesPerPixel * pixels;
  return format.encoderHeapBytesPerPixel * streaming.pixels + streaming.bytesPerPixelBeyond * (pixels - streaming.pixels);
}

/** What a header says: the stored size, and which way up it is shown (EXIF's orientation, HEIF's irot and imir…). */
export interface HeaderRead {
  size: Size;
  orientation: Orientation;
  /** An animation, of which the browser decodes the first frame (a GIF's); absent: a still image. */
  animated?: boolean;
  /** Pages in a multi-page file (a TIFF's), of which the first converts; absent: one. */
  pages?: number;
}

/** The spec's quality slider, shared by every lossy format: percent, divided by 100 for the encoders. */
export const QUALITY_RANGE = { min: 10, max: 100, step: 5 } as const;
