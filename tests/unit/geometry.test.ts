import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { settingsReducer, type SettingsAction } from '../../src/features/settings/settingsReducer.ts';
import { changesPixels, framesAlike, planGeometry, resolutionNeeded, scaleRect } from '../../core/geometry.ts';
import { createRawImage } from '../../core/raw-image.ts';
import { eighthsAtLeast } from '../../workers/pipeline/scaled-decode.ts';
import { transform, type Resizer } from '../../workers/pipeline/transform.ts';

const landscape = { width: 4000, height: 3000 }; // 4:3
const portrait = { width: 3000, height: 4000 }; // 3:4

const settingsAfter = (...actions: SettingsAction[]) => actions.reduce(settingsReducer, DEFAULT_SETTINGS);
const plan = (source: { width: number; height: number }, ...actions: SettingsAction[]) => planGeometry(source, settingsAfter(...actions));

describe('planGeometry: presets', () => {
  it('original keeps the source untouched', () => {
    expect(plan(landscape)).toEqual({ crop: { x: 0, y: 0, width: 4000, height: 3000 }, width: 4000, height: 3000 });
  });

  it('social: centre square crop, then 1080×1080 (landscape and portrait)', () => {
    expect(plan(landscape, { type: 'applyPreset', preset: 'social' })).toEqual({ crop: { x: 500, y: 0, width: 3000, height: 3000 }, width: 1080, height: 1080 });
    expect(plan(portrait, { type: 'applyPreset', preset: 'social' })).toEqual({ crop: { x: 0, y: 500, width: 3000, height: 3000 }, width: 1080, height: 1080 });
  });

  it('web: centre 16:9 crop, then 1920 wide with the height derived', () => {
    expect(plan(landscape, { type: 'applyPreset', preset: 'web' })).toEqual({ crop: { x: 0, y: 375, width: 4000, height: 2250 }, width: 1920, height: 1080 });
    expect(plan(portrait, { type: 'applyPreset', preset: 'web' })).toEqual({ crop: { x: 0, y: 1156, width: 3000, height: 1688 }, width: 1920, height: 1080 });
  });

  it('tiny: 512 wide, height from the source ratio, no crop', () => {
    expect(plan(landscape, { type: 'applyPreset', preset: 'tiny' })).toEqual({ crop: { x: 0, y: 0, width: 4000, height: 3000 }, width: 512, height: 384 });
    expect(plan(portrait, { type: 'applyPreset', preset: 'tiny' })).toEqual({ crop: { x: 0, y: 0, width: 3000, height: 4000 }, width: 512, height: 683 });
  });
});

describe('planGeometry: ratios', () => {
  it.each([
    ['1:1', landscape, { x: 500, y: 0, width: 3000, height: 3000 }, 1080, 1080],
    ['16:9', landscape, { x: 0, y: 375, width: 4000, height: 2250 }, 1920, 1080],
    ['4:3', landscape, { x: 0, y: 0, width: 4000, height: 3000 }, 1200, 900],
    ['9:16', landscape, { x: 1156, y: 0, width: 1688, height: 3000 }, 1080, 1920],
    ['1:1', portrait, { x: 0, y: 500, width: 3000, height: 3000 }, 1080, 1080],
    ['4:3', portrait, { x: 0, y: 875, width: 3000, height: 2250 }, 1200, 900],
    ['9:16', portrait, { x: 375, y: 0, width: 2250, height: 4000 }, 1080, 1920],
  ] as const)('%s on %o crops %o and scales to %d×%d', (ratio, source, crop, width, height) => {
    expect(plan(source, { type: 'setAspectRatio', ratio })).toEqual({ crop, width, height });
  });

  it('a ratio with no dimensions crops without scaling', () => {
    expect(planGeometry(landscape, { aspectRatio: '1:1', resizeWidth: null, resizeHeight: null })).toEqual({
      crop: { x: 500, y: 0, width: 3000, height: 3000 },
      width: 3000,
      height: 3000,
    });
  });

  it('a ratio with only a height derives the width', () => {
    expect(planGeometry(landscape, { aspectRatio: '16:9', resizeWidth: null, resizeHeight: 720 })).toMatchObject({ width: 1280, height: 720 });
  });
});

describe('planGeometry: custom dimensions', () => {
  it('width and height: centre crop to their ratio, then scale — never stretch', () => {
    expect(plan(landscape, { type: 'setWidth', value: 800 }, { type: 'setHeight', value: 800 })).toEqual({
      crop: { x: 500, y: 0, width: 3000, height: 3000 },
      width: 800,
      height: 800,
    });
    expect(plan(portrait, { type: 'setWidth', value: 1000 }, { type: 'setHeight', value: 500 })).toEqual({
      crop: { x: 0, y: 1250, width: 3000, height: 1500 },
      width: 1000,
      height: 500,
    });
  });

  it('width only follows the source ratio, and so does height only', () => {
    expect(plan(landscape, { type: 'setWidth', value: 1000 })).toMatchObject({ crop: { x: 0, y: 0, width: 4000, height: 3000 }, width: 1000, height: 750 });
    expect(plan(portrait, { type: 'setHeight', value: 1000 })).toMatchObject({ width: 750, height: 1000 });
  });

  it('never produces an empty image', () => {
    expect(planGeometry({ width: 5000, height: 10 }, { aspectRatio: 'original', resizeWidth: 10, resizeHeight: null })).toMatchObject({ width: 10, height: 1 });
  });
});

describe('changesPixels: when the browser may encode straight from its decoded bitmap', () => {
  it('is false for a plain re-encode, whatever the format or flags', () => {
    expect(changesPixels(landscape, DEFAULT_SETTINGS)).toBe(false);
    expect(changesPixels(landscape, settingsAfter({ type: 'setFormat', format: 'jpeg' }, { type: 'setQuality', value: 50 }))).toBe(false);
    // A ratio the source already has, at its own width, changes nothing.
    expect(changesPixels(landscape, settingsAfter({ type: 'setWidth', value: 4000 }, { type: 'setAspectRatio', ratio: '4:3' }))).toBe(false);
  });

  it('is true for rotation, any crop or resize, and any adjustment', () => {
    expect(changesPixels(landscape, settingsAfter({ type: 'rotate', direction: 'right' }))).toBe(true);
    expect(changesPixels(landscape, settingsAfter({ type: 'applyPreset', preset: 'tiny' }))).toBe(true);
    expect(changesPixels(landscape, settingsAfter({ type: 'setAspectRatio', ratio: '1:1' }, { type: 'setWidth', value: 3000 }, { type: 'setHeight', value: 3000 }))).toBe(true);
    for (const field of ['brightness', 'contrast', 'saturation'] as const) {
      expect(changesPixels(landscape, settingsAfter({ type: 'setAdjustment', field, value: 5 }))).toBe(true);
    }
  });
});

describe('decoding smaller when the output needs less', () => {
  it('resolutionNeeded: the share of the upright source\'s resolution the output needs', () => {
    expect(resolutionNeeded(landscape, DEFAULT_SETTINGS)).toBe(1);
    // Web 1920 wide: a 16:9 crop 4000 wide of a landscape, 3000 wide of a portrait.
    expect(resolutionNeeded(landscape, settingsAfter({ type: 'applyPreset', preset: 'web' }))).toBeCloseTo(0.48);
    expect(resolutionNeeded(portrait, settingsAfter({ type: 'applyPreset', preset: 'web' }))).toBeCloseTo(0.64);
    // The rotation setting turns the source before the plan.
    expect(resolutionNeeded(landscape, settingsAfter({ type: 'applyPreset', preset: 'web' }, { type: 'rotate', direction: 'right' }))).toBeCloseTo(0.64);
    expect(resolutionNeeded(landscape, settingsAfter({ type: 'applyPreset', preset: 'tiny' }))).toBeCloseTo(512 / 4000);
    // An upscale needs more than the source has.
    expect(resolutionNeeded({ width: 400, height: 300 }, settingsAfter({ type: 'setWidth', value: 800 }))).toBe(2);
  });

  it('eighthsAtLeast asks a DCT-scaling decoder for the smallest eighth that still covers the scale', () => {
    expect(eighthsAtLeast(landscape, 0.48)).toEqual({ width: 2000, height: 1500 });
    expect(eighthsAtLeast(landscape, 0.5)).toEqual({ width: 2000, height: 1500 });
    expect(eighthsAtLeast(landscape, 0.51)).toEqual({ width: 2500, height: 1875 });
    expect(eighthsAtLeast(landscape, 0.01)).toEqual({ width: 500, height: 375 });
    expect(eighthsAtLeast({ width: 4031, height: 3023 }, 0.25)).toEqual({ width: 1008, height: 756 });
    expect(eighthsAtLeast(landscape, 1.5)).toEqual(landscape);
  });

  it('scaleRect maps a full-size crop onto the smaller decode and keeps it inside', () => {
    expect(scaleRect({ x: 500, y: 0, width: 3000, height: 3000 }, landscape, { width: 2000, height: 1500 })).toEqual({ x: 250, y: 0, width: 1500, height: 1500 });
    expect(scaleRect({ x: 0, y: 0, width: 4031, height: 3023 }, { width: 4031, height: 3023 }, { width: 1008, height: 756 })).toEqual({ x: 0, y: 0, width: 1008, height: 756 });
  });

  it('transform plans on the full size, so a smaller decode gives the output a full decode would', async () => {
    const settings = settingsAfter({ type: 'setAspectRatio', ratio: '1:1' }, { type: 'setWidth', value: 100 });
    const fullSource = createRawImage(4031, 3023);
    const halfSource = createRawImage(2016, 1512);
    const resizeTo: Resizer = async (_image, width, height) => createRawImage(width, height);
    const full = await transform(fullSource, settings, { resize: resizeTo, flatten: false });
    const half = await transform(halfSource, settings, { resize: resizeTo, flatten: false, fullSize: { width: 4031, height: 3023 } });
    expect([half.width, half.height]).toEqual([full.width, full.height]);
    const web = settingsAfter({ type: 'setWidth', value: 1001 });
    const fromFull = await transform(fullSource, web, { resize: resizeTo, flatten: false });
    const fromHalf = await transform(halfSource, web, { resize: resizeTo, flatten: false, fullSize: { width: 4031, height: 3023 } });
    expect([fromHalf.width, fromHalf.height]).toEqual([fromFull.width, fromFull.height]);
  });
});

describe('framesAlike: whether a thumbnail frames what its image shows', () => {
  it('takes a thumbnail of the same aspect, rounded to whole pixels', () => {
    expect(framesAlike({ width: 320, height: 240 }, { width: 4032, height: 3024 })).toBe(true);
    expect(framesAlike({ width: 240, height: 320 }, { width: 3024, height: 4032 })).toBe(true);
    // A Sony camera's 1616 × 1080 beside its 9504 × 6336 (3:2): 0.25% apart.
    expect(framesAlike({ width: 1616, height: 1080 }, { width: 9504, height: 6336 })).toBe(true);
  });

  it('refuses one turned the other way, of another aspect, or of no size', () => {
    expect(framesAlike({ width: 320, height: 240 }, { width: 3024, height: 4032 })).toBe(false);
    // The same camera's 160 × 120 (4:3, with bars) beside its 3:2 photo.
    expect(framesAlike({ width: 160, height: 120 }, { width: 9504, height: 6336 })).toBe(false);
    expect(framesAlike({ width: 0, height: 120 }, { width: 160, height: 120 })).toBe(false);
  });
});
