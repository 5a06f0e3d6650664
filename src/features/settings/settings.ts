import type { ConversionSettings, ImageFormat } from '../../../core/contract.ts';
import type { AspectRatio } from '../../../core/geometry.ts';
import { hasTargetSize } from '../../../core/policy.ts';
import { QUALITY_RANGE } from '../../../core/formats.ts';

export type { AspectRatio, ConversionSettings, ImageFormat };

export const DEFAULT_SETTINGS: ConversionSettings = {
  outputFormat: 'webp',
  quality: 80,
  stripMetadata: true,
  resizeWidth: null,
  resizeHeight: null,
  backgroundColor: '#ffffff',
  enableCompression: true,
  autoCompress: false,
  compressionLevel: 85,
  aspectRatio: 'original',
  rotation: 0,
  brightness: 0,
  contrast: 0,
  saturation: 0,
  targetFileSize: null,
  enableTargetSize: false,
  keepOriginalIfLarger: true,
};

export interface Range {
  min: number;
  max: number;
  step: number;
}

export const RANGES = {
  quality: QUALITY_RANGE,
  adjustment: { min: -50, max: 50, step: 5 },
  compressionLevel: { min: 50, max: 95, step: 5 },
  dimension: { min: 1, max: 16384, step: 1 },
  targetFileSize: { min: 1, max: 25 * 1024, step: 1 },
} as const satisfies Record<string, Range>;

export const ASPECT_RATIO_LABELS: Record<AspectRatio, string> = {
  original: 'Original',
  '1:1': '1:1 Square',
  '16:9': '16:9 Landscape',
  '4:3': '4:3 Standard',
  '9:16': '9:16 Portrait',
  custom: 'Custom',
};

/** Width used when a ratio is chosen and no width is set yet. */
export const DEFAULT_RATIO_WIDTH: Record<Exclude<AspectRatio, 'original' | 'custom'>, number> = {
  '1:1': 1080,
  '16:9': 1920,
  '4:3': 1200,
  '9:16': 1080,
};

export const PRESETS = ['social', 'web', 'tiny', 'original'] as const;
export type Preset = (typeof PRESETS)[number];

export const PRESET_LABELS: Record<Preset, string> = {
  social: 'Social 1080×1080',
  web: 'Web 1920 wide',
  tiny: 'Tiny 512 wide',
  original: 'Original size',
};

/**
 * One string per distinct output: equal settings give equal keys. A file converted with these settings is done
 * until one of them changes.
 */
export function settingsKey(settings: ConversionSettings): string {
  return JSON.stringify(Object.keys(DEFAULT_SETTINGS).map((name) => settings[name as keyof ConversionSettings]));
}

/** "Target file size" is on with no size to aim for: a field error, and Convert waits for a value. */
export function targetSizeMissing(settings: ConversionSettings): boolean {
  return settings.enableTargetSize && !hasTargetSize(settings);
}
