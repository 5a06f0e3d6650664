/**
 * The one typed contract between the UI thread (src/) and the workers (workers/).
 * Plain data only: everything here crosses postMessage.
 */

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const ASPECT_RATIOS = ['original', '1:1', '16:9', '4:3', '9:16', 'custom'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export interface ConversionSettings {
  outputFormat: ImageFormat;
  /** Percent, 10–100; divided by 100 for the encoders. */
  quality: number;
  stripMetadata: boolean;
  resizeWidth: number | null;
  resizeHeight: number | null;
  /** Flattening colour for formats without alpha (JPEG). */
  backgroundColor: string;
  enableCompression: boolean;
  autoCompress: boolean;
  compressionLevel: number;
  aspectRatio: AspectRatio;
  /** Degrees, a multiple of 90 in [0, 360). */
  rotation: number;
  brightness: number;
  contrast: number;
  saturation: number;
  /** KB, used only when enableTargetSize is on. */
  targetFileSize: number | null;
  enableTargetSize: boolean;
}

export type ConversionStage = 'decode' | 'transform' | 'encode' | 'metadata';

export interface ConversionProgress {
  stage: ConversionStage;
  /** 0–100, never decreasing within one job. */
  percent: number;
}

export interface ConvertRequest {
  file: Blob;
  name: string;
  settings: ConversionSettings;
}

/**
 * The output comes back as a Blob made in the worker: posting a Blob passes a handle, so the UI thread never
 * copies, holds or garbage-collects the encoded bytes (a transferred ArrayBuffer would still be copied into a
 * Blob there, and count against its heap).
 */
export interface ConvertResult {
  blob: Blob;
  width: number;
  height: number;
  /** How many times the encoder ran: 1, or the target-size search's attempts. */
  encodes: number;
}

export interface ThumbnailRequest {
  file: Blob;
  /** Longest edge of the preview, in CSS pixels × device pixel ratio. */
  maxEdge: number;
}

/** Messages of the spec's error catalogue; a worker throws ConversionError with one of these. */
export const CONVERSION_ERRORS = {
  load: 'Failed to load image',
  canvas: 'Failed to get canvas context',
  blob: 'Failed to convert to blob',
  targetSize: 'Failed to optimize for target file size',
  compression: 'Compression failed',
  generic: 'Conversion failed',
} as const;
