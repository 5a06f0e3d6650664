/**
 * Every type and message that crosses the boundary between the UI thread (src/) and the workers (workers/).
 * Plain data only: everything here crosses postMessage. What a format is lives in formats.ts.
 */
import type { ImageFormat } from './formats';

export type { ImageFormat };

export const ASPECT_RATIOS = ['original', '1:1', '16:9', '4:3', '9:16', 'custom'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** Width ÷ height of a fixed ratio ("16:9"), or null for original and custom. */
export function fixedRatio(ratio: AspectRatio): number | null {
  const match = /^(\d+):(\d+)$/.exec(ratio);
  return match ? Number(match[1]) / Number(match[2]) : null;
}

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

export interface ConversionProgress {
  /** 0–100, never decreasing within one job. */
  percent: number;
}

export interface ConvertRequest {
  file: Blob;
  settings: ConversionSettings;
}

/**
 * The output comes back as a Blob made in the worker: posting a Blob passes a handle, so the UI thread never
 * copies, holds or garbage-collects the encoded bytes (a transferred ArrayBuffer would still be copied into a
 * Blob there, and count against its heap).
 */
export interface ConvertResult {
  blob: Blob;
  /** How many times the encoder ran: 1, or the target-size search's attempts. */
  encodes: number;
}

export interface ThumbnailRequest {
  file: Blob;
  /** Longest edge of the preview, in CSS pixels × device pixel ratio. */
  maxEdge: number;
}

/** One file of a zip: its name inside the archive and its bytes, as a Blob handle. */
export interface ZipEntry {
  name: string;
  file: Blob;
}

/** Messages of the spec's error catalogue; a worker throws an Error with one of these. */
export const CONVERSION_ERRORS = {
  load: 'Failed to load image',
  canvas: 'Failed to get canvas context',
  blob: 'Failed to convert to blob',
  targetSize: 'Failed to optimize for target file size',
  compression: 'Compression failed',
  generic: 'Conversion failed',
} as const;
