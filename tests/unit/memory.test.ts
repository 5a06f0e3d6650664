import { describe, expect, it } from 'vitest';
import type { ConversionSettings } from '../../core/contract.ts';
import { conversionBudget, decodesTakeTurns, deviceMemoryGb, megapixels, pixelLimit } from '../../core/memory.ts';
import { chromiumCanvas, webkitCanvas } from './support/canvas.ts';
import { planJob } from '../../core/plan.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';

const MB = 1024 * 1024;
const photo = (width: number, height: number) => ({ format: 'jpeg', size: { width, height }, orientation: 1 }) as const;
/** How many conversions of this photo with these settings the budget of a device with `gb` lets run at once (a job larger than the budget runs alone). */
const atOnce = (gb: number, source: ReturnType<typeof photo>, changes: Partial<ConversionSettings>) =>
  Math.max(1, Math.floor(conversionBudget(gb) / planJob(source, { ...DEFAULT_SETTINGS, ...changes }, chromiumCanvas).cost));
const browserWebp = { outputFormat: 'webp', enableCompression: false } as const;
const oxipng = { outputFormat: 'png', enableCompression: true } as const;
const jpegli = { outputFormat: 'jpeg', enableCompression: true } as const;
const libavif = { outputFormat: 'avif', enableCompression: true } as const;

describe('the device memory the browser reports', () => {
  it('is read from navigator.deviceMemory, and null where the browser does not say', () => {
    expect(deviceMemoryGb({ deviceMemory: 2 })).toBe(2);
    expect(deviceMemoryGb({ deviceMemory: 0.5 })).toBe(0.5);
    expect(deviceMemoryGb({})).toBeNull();
    expect(deviceMemoryGb({ deviceMemory: 'lots' })).toBeNull();
    expect(deviceMemoryGb({ deviceMemory: 0 })).toBeNull();
    expect(deviceMemoryGb(undefined)).toBeNull();
  });
});

describe('pixelLimit', () => {
  it('is 100 megapixels on 4 GB and more, and where the device does not say', () => {
    expect(pixelLimit(4)).toBe(100_000_000);
    expect(pixelLimit(8)).toBe(100_000_000);
    expect(pixelLimit(null)).toBe(100_000_000);
  });

  it('shrinks with a smaller device: 50 MP on 2 GB, 25 MP on 1 GB', () => {
    expect(pixelLimit(2)).toBe(50_000_000);
    expect(pixelLimit(1)).toBe(25_000_000);
  });
});

describe('conversionBudget, against the costs of jobs', () => {
  it("with the browser's encoder, lets one 12 MP photo run at a time up to 4 GB, where the memory goal is, and three (the slots) on 8 GB", () => {
    expect(atOnce(2, photo(4000, 3000), browserWebp)).toBe(1);
    expect(atOnce(4, photo(4000, 3000), browserWebp)).toBe(1);
    expect(atOnce(8, photo(4000, 3000), browserWebp)).toBeGreaterThanOrEqual(3);
  });

  it("with the browser's encoder, lets two 8 MP photos or three 6 MP ones run at once on 4 GB", () => {
    expect(atOnce(4, photo(3264, 2448), browserWebp)).toBe(2);
    expect(atOnce(4, photo(3000, 2000), browserWebp)).toBe(3);
  });

  it('with jpegli or oxipng, lets one 12 MP photo run at a time up to 4 GB, where the memory goal is', () => {
    for (const gb of [1, 2, 4]) {
      expect(atOnce(gb, photo(4000, 3000), jpegli)).toBe(1);
      expect(atOnce(gb, photo(4000, 3000), oxipng)).toBe(1);
    }
    expect(atOnce(4, photo(3000, 2000), oxipng)).toBe(1);
  });

  it('from 8 GB, lets three 12 MP photos (the slots) run at once through jpegli, and two through oxipng, so a desktop\'s cores work', () => {
    for (const gb of [8, 16, 32]) {
      expect(atOnce(gb, photo(4000, 3000), jpegli)).toBeGreaterThanOrEqual(3);
      expect(atOnce(gb, photo(4000, 3000), oxipng)).toBe(2);
    }
  });

  it('with the default settings (WebP, the browser\'s libwebp), runs 12 MP photos as the browser\'s encoder does: one at a time on 4 GB', () => {
    expect(atOnce(4, photo(4000, 3000), { outputFormat: 'webp', enableCompression: true })).toBe(1);
  });

  it('where the browser has no WebP encoder (Safari), counts libwebp\'s heap: one 12 MP WebP at a time on 4 GB', () => {
    const cost = planJob(photo(4000, 3000), { ...DEFAULT_SETTINGS, outputFormat: 'webp', enableCompression: true }, webkitCanvas).cost;
    expect(Math.max(1, Math.floor(conversionBudget(4) / cost))).toBe(1);
  });

  it('keeps libavif, whose heap is the largest, to one 12 MP photo at a time even from 8 GB', () => {
    for (const gb of [4, 8, 32]) expect(atOnce(gb, photo(4000, 3000), libavif)).toBe(1);
  });

  it("with a resize (the resizer's heap), lets one 12 MP photo for the web run at a time on any device, and two 1.2 MP photos on 4 GB", () => {
    for (const gb of [4, 8, 32]) expect(atOnce(gb, photo(4000, 3000), { ...jpegli, resizeWidth: 1920 })).toBe(1);
    expect(atOnce(4, photo(1280, 960), { ...jpegli, resizeWidth: 1000 })).toBe(2);
  });

  it('stops growing at an 8 GB device, where it holds at most 768 MB', () => {
    expect(conversionBudget(16)).toBe(conversionBudget(8));
    expect(conversionBudget(32)).toBe(conversionBudget(8));
    expect(conversionBudget(8)).toBe(768 * MB);
    expect(conversionBudget(4)).toBe(144 * MB);
  });

  it('lets three 2 MP photos run at once even on a 1 GB phone', () => {
    expect(atOnce(1, photo(1600, 1200), browserWebp)).toBeGreaterThanOrEqual(3);
    expect(conversionBudget(1)).toBe(48 * MB);
  });
});

describe('decodes take turns', () => {
  it('on a phone and where the browser does not say, not from 8 GB', () => {
    expect([1, 2, 4, null].map(decodesTakeTurns)).toEqual([true, true, true, true]);
    expect([8, 16, 32].map(decodesTakeTurns)).toEqual([false, false, false]);
  });
});

describe('megapixels as the refusal message shows them', () => {
  it('rounds to whole megapixels', () => {
    expect(megapixels(900_000_000, 100_000_000)).toBe('900');
    expect(megapixels(48_000_000, 100_000_000)).toBe('48');
  });

  it('keeps a decimal when rounding would read as the limit itself', () => {
    expect(megapixels(100_010_000, 100_000_000)).toBe('100.1');
    expect(megapixels(100_400_000, 100_000_000)).toBe('100.4');
    expect(megapixels(100_600_000, 100_000_000)).toBe('101');
  });
});
