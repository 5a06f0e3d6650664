import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, settingsKey, type ConversionSettings } from '../../src/features/settings/settings.ts';
import { settingsReducer, snapToRange, type SettingsAction } from '../../src/features/settings/settingsReducer.ts';

const run = (...actions: SettingsAction[]): ConversionSettings => actions.reduce(settingsReducer, DEFAULT_SETTINGS);

describe('settings defaults are the spec table', () => {
  it('has every default', () => {
    expect(DEFAULT_SETTINGS).toEqual({
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
      // Not in the spec's table: ours, so that a same-format conversion never hands back a larger file by default.
      keepOriginalIfLarger: true,
    });
  });
});

describe('quick presets', () => {
  it('social = 1080×1080, ratio 1:1', () => {
    expect(run({ type: 'applyPreset', preset: 'social' })).toMatchObject({ resizeWidth: 1080, resizeHeight: 1080, aspectRatio: '1:1' });
  });
  it('web = width 1920, height auto, ratio 16:9', () => {
    expect(run({ type: 'applyPreset', preset: 'web' })).toMatchObject({ resizeWidth: 1920, resizeHeight: null, aspectRatio: '16:9' });
  });
  it('tiny = width 512, height auto, ratio original', () => {
    expect(run({ type: 'applyPreset', preset: 'tiny' })).toMatchObject({ resizeWidth: 512, resizeHeight: null, aspectRatio: 'original' });
  });
  it('original = no resize', () => {
    expect(run({ type: 'applyPreset', preset: 'social' }, { type: 'applyPreset', preset: 'original' })).toMatchObject({
      resizeWidth: null,
      resizeHeight: null,
      aspectRatio: 'original',
    });
  });
});

describe('aspect ratio', () => {
  it.each([
    ['1:1', 1080, 1080],
    ['16:9', 1920, 1080],
    ['4:3', 1200, 900],
    ['9:16', 1080, 1920],
  ] as const)('%s with no width uses its default width %d and derives height %d', (ratio, width, height) => {
    expect(run({ type: 'setAspectRatio', ratio })).toMatchObject({ aspectRatio: ratio, resizeWidth: width, resizeHeight: height });
  });

  it('keeps the current width and derives the height', () => {
    expect(run({ type: 'setWidth', value: 800 }, { type: 'setAspectRatio', ratio: '16:9' })).toMatchObject({
      aspectRatio: '16:9',
      resizeWidth: 800,
      resizeHeight: 450,
    });
    expect(run({ type: 'setWidth', value: 1000 }, { type: 'setAspectRatio', ratio: '9:16' })).toMatchObject({ resizeHeight: 1778 });
  });

  it('original clears both dimensions', () => {
    expect(run({ type: 'setAspectRatio', ratio: '4:3' }, { type: 'setAspectRatio', ratio: 'original' })).toMatchObject({
      aspectRatio: 'original',
      resizeWidth: null,
      resizeHeight: null,
    });
  });

  it('custom keeps the dimensions as they are', () => {
    expect(run({ type: 'setAspectRatio', ratio: '4:3' }, { type: 'setAspectRatio', ratio: 'custom' })).toMatchObject({
      aspectRatio: 'custom',
      resizeWidth: 1200,
      resizeHeight: 900,
    });
  });
});

describe('custom width and height', () => {
  it('are integers and switch the ratio to custom', () => {
    expect(run({ type: 'setAspectRatio', ratio: '1:1' }, { type: 'setWidth', value: 640.6 })).toMatchObject({
      resizeWidth: 641,
      resizeHeight: 1080,
      aspectRatio: 'custom',
    });
    expect(run({ type: 'setHeight', value: 480 })).toMatchObject({ resizeWidth: null, resizeHeight: 480, aspectRatio: 'custom' });
  });

  it('blank, zero, negative or not a number means not set', () => {
    for (const value of [null, 0, -5, Number.NaN]) {
      expect(run({ type: 'setWidth', value: 500 }, { type: 'setWidth', value }).resizeWidth).toBeNull();
    }
  });

  it('are capped at 16384', () => {
    expect(run({ type: 'setWidth', value: 99999 }).resizeWidth).toBe(16384);
  });
});

describe('rotation', () => {
  it('steps by 90 and wraps modulo 360 both ways', () => {
    expect(run({ type: 'rotate', direction: 'right' }).rotation).toBe(90);
    expect(run({ type: 'rotate', direction: 'left' }).rotation).toBe(270);
    const right = { type: 'rotate', direction: 'right' } as const;
    expect(run(right, right, right, right).rotation).toBe(0);
    expect(run(right, right, right, right, right).rotation).toBe(90);
  });
});

describe('sliders snap into their ranges and steps', () => {
  it('quality 10–100 step 5', () => {
    expect(run({ type: 'setQuality', value: 5 }).quality).toBe(10);
    expect(run({ type: 'setQuality', value: 101 }).quality).toBe(100);
    expect(run({ type: 'setQuality', value: 63 }).quality).toBe(65);
  });
  it('brightness, contrast, saturation −50 to 50 step 5', () => {
    expect(run({ type: 'setAdjustment', field: 'brightness', value: 60 }).brightness).toBe(50);
    expect(run({ type: 'setAdjustment', field: 'contrast', value: -51 }).contrast).toBe(-50);
    expect(run({ type: 'setAdjustment', field: 'saturation', value: 12 }).saturation).toBe(10);
  });
  it('compression level 50–95 step 5', () => {
    expect(run({ type: 'setCompressionLevel', value: 99 }).compressionLevel).toBe(95);
    expect(run({ type: 'setCompressionLevel', value: 10 }).compressionLevel).toBe(50);
  });
  it('snapToRange survives NaN', () => {
    expect(snapToRange(Number.NaN, { min: 10, max: 100, step: 5 })).toBe(10);
  });
});

describe('other fields', () => {
  it('format, flags, background colour, target size', () => {
    const state = run(
      { type: 'setFormat', format: 'jpeg' },
      { type: 'setFlag', field: 'stripMetadata', value: false },
      { type: 'setBackgroundColor', value: '#FF0000' },
      { type: 'setBackgroundColor', value: 'not a colour' },
      { type: 'setFlag', field: 'enableTargetSize', value: true },
      { type: 'setTargetFileSize', value: 150.4 },
    );
    expect(state).toMatchObject({ outputFormat: 'jpeg', stripMetadata: false, backgroundColor: '#ff0000', enableTargetSize: true, targetFileSize: 150 });
    expect(settingsReducer(state, { type: 'setTargetFileSize', value: 0 }).targetFileSize).toBeNull();
    expect(settingsReducer(state, { type: 'reset' })).toEqual(DEFAULT_SETTINGS);
  });
});

describe('settingsKey', () => {
  it('is equal for equal settings and differs when any setting does', () => {
    expect(settingsKey({ ...DEFAULT_SETTINGS })).toBe(settingsKey(DEFAULT_SETTINGS));
    for (const change of [{ quality: 75 }, { outputFormat: 'avif' as const }, { stripMetadata: false }, { resizeWidth: 100 }, { rotation: 90 }, { targetFileSize: 10 }]) {
      expect(settingsKey({ ...DEFAULT_SETTINGS, ...change })).not.toBe(settingsKey(DEFAULT_SETTINGS));
    }
  });
});
