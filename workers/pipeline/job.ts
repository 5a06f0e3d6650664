import type { ConversionProgress, ConversionSettings, ConvertRequest, LookSource, OutputLook, Route } from '../../core/contract.ts';
import type { GrowthReason } from '../../core/growth.ts';
import type { EncodeOptions } from '../../wasm/codec.ts';

/** What every route of a conversion shares: its request, its progress, the image it makes. */

export type ProgressReporter = (progress: ConversionProgress) => void;

export interface EncodedImage {
  bytes: ArrayBuffer;
  mimeType: string;
  width: number;
  height: number;
  encodes: number;
  /** How it looks beside the source (core/look.ts); null where not judged (a lossless output, a target size) or judged later. */
  look: OutputLook | null;
  /** What judging it later needs (ConvertRequest.judgeLater); null where judged now, or not judged. */
  lookSource: LookSource | null;
}

/**
 * A conversion's result: its encoded image, the route it took, and (keepOriginalIfLarger) word that the source is the
 * better file, or why an output larger than its source is larger.
 */
export type ConversionOutcome = EncodedImage & { keptOriginal: { convertedBytes: number } | null; route: Route; grewBecause: GrowthReason | null };

/** Percent reached at the end of each stage; encoding takes the span from transform to metadata. */
export const STAGE_END = { decode: 30, transform: 45, encode: 95, metadata: 99 } as const;

/**
 * Quality 0–1 for the encoders: the slider's. Smart compression chooses its own (encodeByLook), and a lossless format
 * takes none.
 */
export function encoderQuality(settings: ConversionSettings): number {
  return settings.quality / 100;
}

export type EncodeRequest = Pick<ConvertRequest, 'settings' | 'plan' | 'alone' | 'judgeLater'>;

/** The encoder's options for a quality (0–1), the rest as the plan and settings say. */
export const encodeOptions = (quality: number, { settings, plan, alone }: EncodeRequest): EncodeOptions => ({ quality, optimise: plan.encoder === 'wasm', thorough: settings.enableCompression, alone });

/**
 * The source file's bytes, read whole at most once per conversion and only when something needs them (its EXIF,
 * whether it carries metadata, a WASM decode), then let go before the pixels are held.
 */
export class SourceBytes {
  private bytes: Promise<ArrayBuffer> | null = null;
  constructor(private readonly file: Blob) {}
  read(): Promise<ArrayBuffer> {
    return (this.bytes ??= this.file.arrayBuffer());
  }
  release(): void {
    this.bytes = null;
  }
}
