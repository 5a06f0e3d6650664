import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asOrientation, orientationOfHeif, orientationOfTurn, shownSizeOf, turnOf, turnsAQuarter, type HeifTransform } from '../../core/orientation.ts';
import { createRawImage } from '../../core/raw-image.ts';
import { flipHorizontal, rotate, uprightPixels } from '../../workers/pipeline/pixels.ts';

const ORIENTATIONS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** A w × h image whose every pixel is its own index, to follow where each goes. */
function numbered(width: number, height: number) {
  const image = createRawImage(width, height);
  new Uint32Array(image.data.buffer).forEach((_, i, all) => (all[i] = i));
  return image;
}
const same = (a: { width: number; height: number; data: Uint8ClampedArray }, b: typeof a) => a.width === b.width && a.height === b.height && a.data.every((v, i) => v === b.data[i]);

describe('orientations (core/orientation.ts)', () => {
  it('a VideoFrame\'s rotation and flip and an EXIF orientation are one thing: turnOf and orientationOfTurn invert each other', () => {
    for (const orientation of ORIENTATIONS) {
      const { clockwise, mirrored } = turnOf(orientation);
      expect(orientationOfTurn(clockwise, mirrored)).toBe(orientation);
      expect(orientationOfTurn(clockwise + 360, mirrored)).toBe(orientation);
    }
  });

  it('5–8 turn a quarter: the shown size is the stored size turned', () => {
    for (const orientation of ORIENTATIONS) {
      expect(turnsAQuarter(orientation)).toBe(orientation >= 5);
      expect(shownSizeOf({ width: 4, height: 3 }, orientation)).toEqual(orientation >= 5 ? { width: 3, height: 4 } : { width: 4, height: 3 });
    }
  });

  it('reads a bad EXIF value as upright', () => {
    for (const value of [0, 9, 65535, -1, 2.5, Number.NaN]) expect(asOrientation(value)).toBe(1);
    for (const orientation of ORIENTATIONS) expect(asOrientation(orientation)).toBe(orientation);
  });

  it('HEIF\'s irot (anticlockwise) and imir name the EXIF orientation that shows the same picture', () => {
    expect(orientationOfHeif([])).toBe(1);
    expect(orientationOfHeif([{ irot: 1 }])).toBe(8);
    expect(orientationOfHeif([{ irot: 2 }])).toBe(3);
    expect(orientationOfHeif([{ irot: 3 }])).toBe(6);
    expect(orientationOfHeif([{ imir: 1 }])).toBe(2);
    expect(orientationOfHeif([{ imir: 0 }])).toBe(4);
  });

  it('any list of irot and imir shows the picture the pixels show after each transform in turn', () => {
    const transform = fc.oneof(fc.record({ irot: fc.integer({ min: 0, max: 3 }) }), fc.record({ imir: fc.integer({ min: 0, max: 1 }) })) as fc.Arbitrary<HeifTransform>;
    fc.assert(
      fc.property(fc.array(transform, { maxLength: 5 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), (transforms, width, height) => {
        let shown = numbered(width, height);
        for (const step of transforms) {
          if ('irot' in step) shown = rotate(shown, -90 * step.irot);
          else shown = step.imir === 1 ? flipHorizontal(shown) : flipHorizontal(rotate(shown, 180));
        }
        return same(uprightPixels(numbered(width, height), orientationOfHeif(transforms)), shown);
      }),
    );
  });
});
