import type { FormatInfo, SourceFormatInfo } from '../core/format.ts';
import type { ImageFormat, SourceFormat } from '../core/formats.ts';
import type { PixelRows, RawImage } from '../core/raw-image.ts';

/**
 * What the workers know of a format they read: the codec folder's index.ts exports it as `codec`, and wasm/index.ts
 * finds every folder's. Its registry entry (core/formats/<format>.ts) is what both threads know.
 */
export interface SourceCodec {
  format: SourceFormatInfo<SourceFormat>;
  /** The WASM decoder, for files the browser cannot decode; fetched and compiled on first use. */
  decode(buffer: ArrayBuffer): Promise<RawImage>;
  /**
   * Whether `decode` gives the picture upright (libheif applies HEIF's irot and imir, libjxl the codestream's
   * orientation); otherwise it gives the stored pixels and the pipeline turns them as the header says.
   */
  decodesUpright: boolean;
  metadata: SourceMetadata;
  /**
   * The smallest picture the file carries for previews (a HEIC's thumbnail) whose longer edge is at least
   * `minLongEdge`, decoded; null when it carries none that large. Far cheaper than `decode` for a preview.
   */
  decodeThumbnail?(buffer: ArrayBuffer, minLongEdge: number): Promise<EmbeddedThumbnail | null>;
}

/** A picture a file carries for previews, decoded (SourceCodec.decodeThumbnail). */
export interface EmbeddedThumbnail {
  image: RawImage;
  /**
   * Whether it came turned as the file says for it (its own orientation, which the decoder applied). If not, it is
   * stored as the image itself is, and shows upright turned as the image is (an iPhone HEIC's thumbnail has no `irot`
   * of its own beside its primary image's: libheif issue 548).
   */
  turnedOwnWay: boolean;
}

/** What the workers know of a format they also write: a source codec with an encoder. */
export interface Codec extends SourceCodec {
  format: FormatInfo<ImageFormat>;
  /**
   * The format's WASM encoder: only encodes. Whether it runs at all is the plan's (JobPlan.encoder); the browser's
   * encoder, where the plan chose it, is the pipeline's (workers/pipeline/canvas-encoder.ts encodeImage).
   */
  encode(image: RawImage, options: EncodeOptions): Promise<ArrayBuffer>;
  /**
   * The size-optimising encoder on rows it reads a strip at a time (`optimise` only): where it takes rows as it goes
   * (jpegli), a decoded frame is read into it strip by strip rather than copied out whole first.
   */
  encodeRows?(rows: PixelRows, options: EncodeOptions): Promise<ArrayBuffer>;
  /** Compiles the size-optimising encoder by running it once on `tiny`: a codec's start-up ends with its first call. */
  warm(tiny: ImageData): Promise<unknown>;
  metadata: ContainerMetadata;
}

export interface EncodeOptions {
  /** 0–1; ignored by lossless formats. */
  quality: number;
  /**
   * The plan chose the WASM encoder (JobPlan.encoder): the pipeline does not try the browser's first, and a format
   * with a plain and a size-optimising WASM encoder (PNG: oxipng) takes the optimising one.
   */
  optimise: boolean;
  /** The job runs alone (ConvertRequest.alone): a threaded encoder may take every core, else one. */
  alone?: boolean;
  /**
   * "Optimised compression" is on. Where the WASM encoder is the only one and has a slower setting that makes smaller
   * files (JPEG XL's effort), it takes that one; off, its fast one.
   */
  thorough?: boolean;
}

/** EXIF and other metadata in a source (exif.ts). The payload is the TIFF structure, without "Exif\0\0". */
export interface SourceMetadata {
  /** The source's EXIF, or null when it has none or it is not read from this container. */
  readExif(bytes: Uint8Array): Uint8Array | null;
  /** Whether the file carries metadata "Strip metadata" would remove (EXIF, XMP, IPTC, comments, text). */
  hasMetadata(bytes: Uint8Array): boolean;
}

/** EXIF and other metadata in a container the app writes. */
export interface ContainerMetadata extends SourceMetadata {
  /** Writes EXIF into an encoded file; absent for a container we do not write it into. */
  writeExif?(encoded: Uint8Array, tiff: Uint8Array, size: { width: number; height: number }): Uint8Array;
  /**
   * Whether an encoded file stores its pixels exactly, where its container can hold either (a browser's WebP at 100 %
   * is VP8L); absent where the format's settings already tell (FormatInfo.quality).
   */
  isLossless?(encoded: Uint8Array): boolean;
}

/** A source whose EXIF is not read: its container has none (GIF, BMP), or its reader is not written yet. */
export const NO_SOURCE_METADATA: SourceMetadata = { readExif: () => null, hasMetadata: () => false };

/** A source every engine's browser decodes (createImageBitmap): no WASM decoder stands in, and no EXIF is read. */
export function decodedByEveryBrowser(format: SourceFormatInfo<SourceFormat>): SourceCodec {
  return { format, decode: () => Promise.reject(new Error(`${format.label} is decoded by the browser`)), decodesUpright: false, metadata: NO_SOURCE_METADATA };
}

/**
 * The registry's options for a codec (core/formats/<format>.ts, which knows no codec's types), held to the codec's own
 * options type where the codec takes them: an option the codec does not have fails the type check.
 */
export function knownOptions<Options extends object>() {
  return <Given extends Partial<Options>>(options: Given & Record<Exclude<keyof Given, keyof Options>, never>): Given => options;
}
