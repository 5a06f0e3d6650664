import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jpegliQuality } from '../../wasm/jpeg/options.ts';

/** The slider's quality (0–1) as jpegli's (1–100): the map measured by `npm run bench:encoders -- --look`. */
describe('jpegliQuality', () => {
  it('gives jpegli quality 100 at the slider\'s 100, and stays on jpegli\'s scale at the ends', () => {
    expect(jpegliQuality(1)).toBe(100);
    expect(jpegliQuality(0.01)).toBe(1);
    expect(jpegliQuality(0)).toBe(1);
  });

  it('never lowers jpegli\'s quality as the slider rises (the target-size search bisects on it), and stays within 1–100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(jpegliQuality(low / 100)).toBeLessThanOrEqual(jpegliQuality(high / 100));
        for (const q of [low, high]) {
          expect(jpegliQuality(q / 100)).toBeGreaterThanOrEqual(1);
          expect(jpegliQuality(q / 100)).toBeLessThanOrEqual(100);
        }
      }),
    );
  });

  it('between two of the slider\'s steps, lies between what the steps map to', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 99 }), (percent) => {
        const below = Math.floor(percent / 5) * 5;
        const value = jpegliQuality(percent / 100);
        expect(value).toBeGreaterThanOrEqual(jpegliQuality(below / 100));
        expect(value).toBeLessThanOrEqual(jpegliQuality((below + 5) / 100));
      }),
    );
  });
});
