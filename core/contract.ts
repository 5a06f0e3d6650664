/**
 * What crosses the boundary between the page (src/) and the workers (workers/): the settings, each worker's API
 * and the plain data its calls carry (everything here crosses postMessage). The worker entry points implement these
 * APIs, so the page never imports worker code, not even for its types. What a format is lives in formats.ts; the
 * error catalogue in messages.ts.
 */
import type { ImageFormat, SourceFormat } from './formats.ts';
import type { DevicePlace, Kept } from './deviceFiles.ts';
import type { GrowthReason } from './growth.ts';
import type { AspectRatio, GeometryPlan, Rect, Size } from './geometry.ts';
import type { Orientation } from './orientation.ts';

export type { ImageFormat, SourceFormat };

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
  | { name: 'fitting'; attempt: number; attempts: number; targetKb: number }
  /** Smart compression's encodes of the whole image, each judged (workers/pipeline/smart-quality.ts). */
  | { name: 'choosing'; attempt: number };

export interface ConversionProgress {
  /** 0–100, never decreasing within one job. */
  percent: number;
  /** The stage that starts with this report. */
  stage?: ConversionStage;
}

/** What the source's header says, read once on the page at intake. */
export interface SourceHeader {
  format: SourceFormat;
  /** As stored, before EXIF orientation or `irot`. */
  size: Size;
  /** Which way up it is shown (core/orientation.ts): EXIF's, a TIFF's, HEIF's `irot` and `imir`, a JPEG XL codestream's. */
  orientation: Orientation;
}

/**
 * A job's plan, made on the page from the header read at intake (core/plan.ts): the worker trusts it and parses no
 * header of its own.
 */
export interface JobPlan {
  source: SourceHeader;
  /** The source as shown and then turned by the rotation setting: what `geometry` is planned on. */
  shown: Size;
  /** The crop and output size on `shown`. */
  geometry: GeometryPlan;
  /**
   * Bytes the conversion holds at its largest (decoded pixels, and what its encoder holds for them: core/plan.ts),
   * counted against the pool's memory budget; `sampleCost` the same for an estimate's sample (sampleOutput), which
   * encodes a part of the output.
   */
  cost: number;
  sampleCost: number;
  /** Which encoder writes the output (core/policy.ts plannedEncoder): the browser's (a canvas export) or the format's WASM one. */
  encoder: 'browser' | 'wasm';
  /** How the job goes from source to output (core/plan.ts planRoute). */
  route: Route;
}

/**
 * The ways a job goes from its source to its output, each a function of its own in workers/pipeline/routes/:
 * - `bitmap`: the browser's decoded bitmap handed to the browser's encoder as it is (a plain re-encode the browser writes);
 * - `rows`: the decoded frame's rows read a strip at a time into a WASM encoder that takes rows (jpegli), for a source
 *   stored upright;
 * - `pixels`: the pixels read out whole, made upright, transformed, encoded at the slider's quality;
 * - `target-size`: the pixels, encoded again at qualities until they fit the target size;
 * - `smart`: the pixels, encoded at the lowest quality that looks as the compression level asks.
 */
export const ROUTES = ['bitmap', 'rows', 'pixels', 'target-size', 'smart'] as const;
export type Route = (typeof ROUTES)[number];

export interface ConvertRequest {
  file: Blob;
  settings: ConversionSettings;
  plan: JobPlan;
  /** The most pixels the source and the output may have (memory.ts, from the UI thread's view of the device). */
  pixelLimit: number;
  /** Whether the decode waits until no other worker decodes (memory.ts decodesTakeTurns, from the UI thread's view of the device). */
  decodeAlone: boolean;
  /** Nothing else converts or waits as this starts (the pool's word): a threaded encoder may take every core. */
  alone: boolean;
  /** Where to keep the output on the device (core/deviceFiles.ts); null: hand it back in memory. */
  keepAt: DevicePlace | null;
  /**
   * Hand back what judging the output needs (LookSource) instead of judging it: the page judges it once the batch is
   * done (ConversionQueue), so a batch's results come a decode and a score sooner each.
   */
  judgeLater: boolean;
}

/** How an output looks beside its source (core/look.ts). */
export interface OutputLook {
  /** SSIMULACRA2 of the output's view against the source's (workers/pipeline/look.ts): 100 is identical. */
  score: number;
  /** The quality (1–100) Smart compression chose; null when the quality setting gave it. */
  smartQuality: number | null;
}

/**
 * The source's side of a judgement (workers/pipeline/look.ts): its view, the tiles of the output the view is made
 * of. An RGBA buffer (at most LOOK_GRID² tiles of LOOK_TILE², 2.4 MB), transferred, not copied.
 */
export interface LookSource {
  view: { data: Uint8ClampedArray; width: number; height: number };
  tiles: Rect[];
}

/** An output to judge against its source's view, after its conversion (ConvertWorkerApi.judge). */
export interface JudgeRequest {
  output: Blob;
  format: ImageFormat;
  source: LookSource;
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
  /** The route the conversion took (the plan's, or the pixels where a bitmap or rows route could not take the source). */
  route: Route;
  /** The source came back unchanged (keepOriginalIfLarger); the conversion's own size, for the visitor. */
  keptOriginal: { convertedBytes: number } | null;
  /** Why the output is larger than its source (core/growth.ts); null where it is not. */
  grewBecause: GrowthReason | null;
  /** How the output looks beside the source (core/look.ts); null where it was not judged, or is to be judged later. */
  look: OutputLook | null;
  /** What judging the output later needs (ConvertRequest.judgeLater); null where it was judged, or is not judged. */
  lookSource: LookSource | null;
  /** The output's pixel size. */
  width: number;
  height: number;
  /**
   * The output's CRC-32, reckoned while its bytes were in the worker's hands, so a zip of a thousand outputs need not
   * read them all back for it; null where the output is the source kept (its bytes were never read).
   */
  crc32: number | null;
  /**
   * Where the output is: on the device (the Blob is the stored file, read from disk), in memory (no place was asked,
   * or the device has no such storage), or in memory because the device's storage is full.
   */
  kept: Kept;
}

export interface ThumbnailRequest {
  file: Blob;
  source: SourceHeader;
  /** Longest edge of the preview, in CSS pixels × device pixel ratio. */
  maxEdge: number;
}

/** One file of a zip: its name inside the archive and its bytes, as a Blob handle. */
export interface ZipEntry {
  name: string;
  file: Blob;
  /** Its CRC-32 where known (ConvertResult.crc32); null where the zip must read the file for it. */
  crc32: number | null;
}

/**
 * What an output will weigh, measured on a part of it: a centred part of the transformed image (at most
 * SAMPLE_PIXELS), encoded with the settings. Its bytes per pixel, times the output's pixels, estimate the output.
 */
export interface OutputSample {
  bytes: number;
  /** The part's pixels, and the whole output's. */
  pixels: number;
  outputPixels: number;
}

/** Which codecs a coming conversion will run: the format's optimising encoder, the resizer, or neither. */
export interface WarmUpPlan {
  format: ImageFormat;
  encoder: boolean;
  resizer: boolean;
  /** The outputs will be judged (core/look.ts): the metric too. */
  judge: boolean;
}

/** workers/convert.worker.ts: one conversion per call, progress through a Comlink proxy. */
export interface ConvertWorkerApi {
  convert(request: ConvertRequest, onProgress?: (progress: ConversionProgress) => void): Promise<ConvertResult>;
  /** Fetches and compiles the codecs a coming conversion needs, ahead of it. */
  warmUp(plan: WarmUpPlan): Promise<void>;
  /** Encodes a part of what a conversion would output, to estimate its size (OutputSample). */
  sample(request: ConvertRequest): Promise<OutputSample>;
  /** How an output looks beside its source's view (ConvertRequest.judgeLater). */
  judge(request: JudgeRequest): Promise<OutputLook>;
}

/** How an output frames its source: the rotation setting, then the crop on the rotated source (its plan's geometry). */
export interface Framing {
  rotation: number;
  crop: Rect;
}

/**
 * A picture of an image for the compare view: the source as its output frames it (`framing`), or an output as it is
 * (`framing` null); all of it, or a part (`region`, in the framed image's own pixels); drawn to fit `box` (device
 * pixels), never larger than its own pixels.
 */
export interface ViewRequest {
  file: Blob;
  source: SourceHeader;
  framing: Framing | null;
  region: Rect | null;
  box: Size;
}

/** workers/thumbnail.worker.ts: the pictures the page shows of an image: a small WebP preview, a view to compare. */
export interface ThumbnailWorkerApi {
  thumbnail(request: ThumbnailRequest): Promise<Blob>;
  /** An ImageBitmap, transferred: the page draws it as it is. */
  view(request: ViewRequest): Promise<ImageBitmap>;
}

/** workers/keep.worker.ts: copies a file onto the device (a job's source, so the job outlives the tab). */
export interface KeepWorkerApi {
  keep(file: Blob, place: DevicePlace): Promise<Kept>;
}

/** workers/zip.worker.ts: one stored zip of the given files. */
export interface ZipWorkerApi {
  zip(entries: ZipEntry[]): Promise<Blob>;
}
