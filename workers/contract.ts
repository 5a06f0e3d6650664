/**
 * Every type and message that crosses the boundary between the UI thread (src/) and the workers (workers/).
 * Plain data only: everything here crosses postMessage. What a format is lives in formats.ts.
 */
import type { ImageFormat } from './formats';
import { megapixels } from './memory';

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
  /**
   * When a conversion to the source's own format, with nothing else changed, comes out larger than the source, hand
   * back the source instead (only when it has no metadata the settings would strip).
   */
  keepOriginalIfLarger: boolean;
}

/** What a conversion is doing, for the job's label: "Decoding", "Encoding", "Fitting to 200 KB: try 3 of 8". */
export type ConversionStage =
  | { name: 'decoding' | 'transforming' | 'encoding' | 'metadata' }
  | { name: 'fitting'; attempt: number; attempts: number; targetKb: number };

/** Whether the settings ask for a byte budget (on, and with a size). */
export function hasTargetSize(settings: ConversionSettings): settings is ConversionSettings & { targetFileSize: number } {
  return settings.enableTargetSize && settings.targetFileSize !== null && settings.targetFileSize > 0;
}

/**
 * Whether a conversion with these settings ends in the browser's own encoder (a canvas export), not a WASM one: no
 * optimised compression, no target size, and a format a canvas may encode (`output` is its registry entry).
 */
export function usesBrowserEncoder(settings: ConversionSettings, output: { canvasEncoder: boolean }): boolean {
  return output.canvasEncoder && !settings.enableCompression && !hasTargetSize(settings);
}

export interface ConversionProgress {
  /** 0–100, never decreasing within one job. */
  percent: number;
  /** The stage that starts with this report. */
  stage?: ConversionStage;
}

export interface ConvertRequest {
  file: Blob;
  settings: ConversionSettings;
  /** The most pixels the source and the output may have (memory.ts, from the UI thread's view of the device). */
  pixelLimit: number;
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
  /** The source came back unchanged (keepOriginalIfLarger); the conversion's own size, for the visitor. */
  keptOriginal: { convertedBytes: number } | null;
  /** The output's pixel size. */
  width: number;
  height: number;
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
  memory: 'Not enough memory to convert this image',
} as const;

/** A source over the pixel limit, refused at intake (and by the worker, should one reach it). */
export function imageTooLargeMessage(pixels: number, limit: number): string {
  return `Image too large: ${megapixels(pixels, limit)} megapixels (limit ${limit / 1_000_000})`;
}

/** An output size (resize, custom size) over the pixel limit. */
export function outputTooLargeMessage(pixels: number, limit: number): string {
  return `Output too large: ${megapixels(pixels, limit)} megapixels (limit ${limit / 1_000_000})`;
}

/** Whether a message is one a visitor should read as it is: the catalogue's, or a size limit's. */
export function isExplainedError(message: string): boolean {
  return (Object.values(CONVERSION_ERRORS) as string[]).includes(message) || /^(Image|Output) too large: /.test(message);
}

/**
 * Images shared to the installed app from another app's Share sheet (the manifest's share_target): the service
 * worker receives the POST, keeps the files in a cache of their own and sends the page to `landing`, which takes them.
 */
export const SHARE_TARGET = {
  /** Where the share sheet posts (multipart/form-data). */
  action: '/share-target',
  /** The form field holding the files. */
  field: 'images',
  /** The Cache Storage cache the worker keeps them in until the page takes them. */
  cache: 'pixel-converter-shared-files',
  /** Where the worker sends the page afterwards: the converter, told to look in that cache. */
  landing: '/?shared',
  /** Headers on each kept file's entry that carry what a Response does not: its name and when it was modified. */
  nameHeader: 'x-file-name',
  modifiedHeader: 'x-file-last-modified',
} as const;
