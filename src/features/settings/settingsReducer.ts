import { fixedRatio } from '../../../core/geometry.ts';
import {
  DEFAULT_RATIO_WIDTH,
  DEFAULT_SETTINGS,
  RANGES,
  type AspectRatio,
  type ConversionSettings,
  type ImageFormat,
  type Preset,
  type Range,
} from './settings.ts';

export type SettingsAction =
  | { type: 'setFormat'; format: ImageFormat }
  | { type: 'setQuality'; value: number }
  | { type: 'setCompressionLevel'; value: number }
  | { type: 'setAdjustment'; field: 'brightness' | 'contrast' | 'saturation'; value: number }
  | { type: 'setFlag'; field: 'stripMetadata' | 'enableCompression' | 'autoCompress' | 'enableTargetSize' | 'keepOriginalIfLarger'; value: boolean }
  | { type: 'setBackgroundColor'; value: string }
  | { type: 'applyPreset'; preset: Preset }
  | { type: 'setAspectRatio'; ratio: AspectRatio }
  | { type: 'setWidth'; value: number | null }
  | { type: 'setHeight'; value: number | null }
  | { type: 'rotate'; direction: 'left' | 'right' }
  | { type: 'setTargetFileSize'; value: number | null }
  | { type: 'reset' }
  /** The settings of a batch a page before this one left on the device. */
  | { type: 'restore'; settings: ConversionSettings };

/** Snaps a slider value into its range and onto its step. */
export function snapToRange(value: number, { min, max, step }: Range): number {
  if (!Number.isFinite(value)) return min;
  const snapped = min + Math.round((value - min) / step) * step;
  return Math.min(max, Math.max(min, snapped));
}

/** An integer dimension in range, or null for "not set" (blank, zero, negative, not a number). */
export function toDimension(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const integer = Math.round(value);
  return integer < RANGES.dimension.min ? null : Math.min(integer, RANGES.dimension.max);
}

function withRatio(state: ConversionSettings, ratio: AspectRatio): ConversionSettings {
  const value = fixedRatio(ratio);
  if (ratio === 'original') return { ...state, aspectRatio: ratio, resizeWidth: null, resizeHeight: null };
  if (value === null) return { ...state, aspectRatio: ratio };
  const width = state.resizeWidth ?? DEFAULT_RATIO_WIDTH[ratio as keyof typeof DEFAULT_RATIO_WIDTH];
  return { ...state, aspectRatio: ratio, resizeWidth: width, resizeHeight: Math.round(width / value) };
}

function withPreset(state: ConversionSettings, preset: Preset): ConversionSettings {
  switch (preset) {
    case 'social':
      return { ...state, resizeWidth: 1080, resizeHeight: 1080, aspectRatio: '1:1' };
    case 'web':
      return { ...state, resizeWidth: 1920, resizeHeight: null, aspectRatio: '16:9' };
    case 'tiny':
      return { ...state, resizeWidth: 512, resizeHeight: null, aspectRatio: 'original' };
    case 'original':
      return { ...state, resizeWidth: null, resizeHeight: null, aspectRatio: 'original' };
  }
}

export function settingsReducer(state: ConversionSettings, action: SettingsAction): ConversionSettings {
  switch (action.type) {
    case 'setFormat':
      return { ...state, outputFormat: action.format };
    case 'setQuality':
      return { ...state, quality: snapToRange(action.value, RANGES.quality) };
    case 'setCompressionLevel':
      return { ...state, compressionLevel: snapToRange(action.value, RANGES.compressionLevel) };
    case 'setAdjustment':
      return { ...state, [action.field]: snapToRange(action.value, RANGES.adjustment) };
    case 'setFlag':
      return { ...state, [action.field]: action.value };
    case 'setBackgroundColor':
      return /^#[0-9a-f]{6}$/i.test(action.value) ? { ...state, backgroundColor: action.value.toLowerCase() } : state;
    case 'applyPreset':
      return withPreset(state, action.preset);
    case 'setAspectRatio':
      return withRatio(state, action.ratio);
    case 'setWidth':
      return { ...state, resizeWidth: toDimension(action.value), aspectRatio: 'custom' };
    case 'setHeight':
      return { ...state, resizeHeight: toDimension(action.value), aspectRatio: 'custom' };
    case 'rotate': {
      const delta = action.direction === 'right' ? 90 : -90;
      return { ...state, rotation: (((state.rotation + delta) % 360) + 360) % 360 };
    }
    case 'setTargetFileSize': {
      const value = action.value;
      const valid = value !== null && Number.isFinite(value) && value >= RANGES.targetFileSize.min;
      return { ...state, targetFileSize: valid ? Math.min(Math.round(value), RANGES.targetFileSize.max) : null };
    }
    case 'reset':
      return DEFAULT_SETTINGS;
    case 'restore':
      return { ...DEFAULT_SETTINGS, ...action.settings };
  }
}
