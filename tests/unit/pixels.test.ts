import { describe, expect, it } from 'vitest';
import { adjust, crop, filterAmount, flatten, parseHexColour, rotate, uprightPixels } from '../../workers/pipeline/pixels.ts';
import type { RawImage } from '../../core/raw-image.ts';
import { frameOrientation } from '../../workers/pipeline/bitmap-pixels.ts';
import { shownAt } from '../fixtures/oriented.ts';

function image(width: number, height: number, pixels: number[][]): RawImage {
  return { width, height, data: new Uint8ClampedArray(pixels.flat()) };
}
const px = (img: RawImage, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];
const one = (rgba: number[]) => image(1, 1, [rgba]);

// 3×2, each pixel's red channel names it: 1 2 3 / 4 5 6
const grid = () => image(3, 2, [1, 2, 3, 4, 5, 6].map((n) => [n, 0, 0, 255]));
const reds = (img: RawImage) => Array.from({ length: img.width * img.height }, (_, i) => img.data[i * 4]);

describe('rotate', () => {
  it('90° clockwise', () => {
    const out = rotate(grid(), 90);
    expect([out.width, out.height]).toEqual([2, 3]);
    expect(reds(out)).toEqual([4, 1, 5, 2, 6, 3]);
  });
  it('180°', () => {
    expect(reds(rotate(grid(), 180))).toEqual([6, 5, 4, 3, 2, 1]);
  });
  it('270°', () => {
    const out = rotate(grid(), 270);
    expect([out.width, out.height]).toEqual([2, 3]);
    expect(reds(out)).toEqual([3, 6, 2, 5, 1, 4]);
  });
  it('0° returns the image as it is', () => {
    const source = grid();
    expect(rotate(source, 0)).toBe(source);
  });
});

describe('uprightPixels: stored pixels made upright as their orientation says', () => {
  it('6 turns clockwise, 8 anticlockwise, 3 half a turn, 2 mirrors, 4 flips', () => {
    expect(reds(uprightPixels(grid(), 6))).toEqual([4, 1, 5, 2, 6, 3]);
    expect(reds(uprightPixels(grid(), 8))).toEqual([3, 6, 2, 5, 1, 4]);
    expect(reds(uprightPixels(grid(), 3))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(reds(uprightPixels(grid(), 2))).toEqual([3, 2, 1, 6, 5, 4]);
    expect(reds(uprightPixels(grid(), 4))).toEqual([4, 5, 6, 1, 2, 3]);
    expect(reds(uprightPixels(grid(), 1))).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('5 transposes and 7 transverses', () => {
    expect(reds(uprightPixels(grid(), 5))).toEqual([1, 4, 2, 5, 3, 6]);
    expect(reds(uprightPixels(grid(), 7))).toEqual([6, 3, 5, 2, 4, 1]);
  });
  it('puts every stored pixel where the EXIF specification says it shows (the oriented fixtures\' arithmetic)', () => {
    const stored = image(3, 2, Array.from({ length: 6 }, (_, n) => [n, 0, 0, 255]));
    for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8] as const) {
      const upright = uprightPixels(stored, orientation);
      for (let y = 0; y < 2; y++) {
        for (let x = 0; x < 3; x++) {
          const [sx, sy] = shownAt(orientation, x, y, 3, 2);
          expect(px(upright, sx, sy)[0], `orientation ${orientation}, (${x}, ${y})`).toBe(y * 3 + x);
        }
      }
    }
  });
});

describe('a VideoFrame read out', () => {
  // What Chromium's VideoFrame of a bitmap reports for each EXIF orientation (measured on JPEGs tagged 1–8 by exiftool).
  const reported: Record<number, { rotation: number; flip: boolean }> = {
    1: { rotation: 0, flip: false },
    2: { rotation: 0, flip: true },
    3: { rotation: 180, flip: false },
    4: { rotation: 180, flip: true },
    5: { rotation: 90, flip: true },
    6: { rotation: 90, flip: false },
    7: { rotation: 270, flip: true },
    8: { rotation: 270, flip: false },
  };
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('orientation %i: what the frame says is that orientation', (orientation) => {
    expect(frameOrientation(reported[orientation]!)).toBe(orientation);
  });
});

describe('crop', () => {
  it('copies the rectangle', () => {
    expect(reds(crop(grid(), { x: 1, y: 0, width: 2, height: 2 }))).toEqual([2, 3, 5, 6]);
  });
});

describe('filters: CSS Filter Effects formulas on non-premultiplied values', () => {
  it('amount is 100% plus twice the slider', () => {
    expect(filterAmount(0)).toBe(1);
    expect(filterAmount(50)).toBe(2);
    expect(filterAmount(-50)).toBe(0);
    expect(filterAmount(25)).toBe(1.5);
  });

  it('brightness(a): C·a, clamped', () => {
    expect(px(adjust(one([100, 50, 200, 255]), { brightness: 25, contrast: 0, saturation: 0 }), 0, 0)).toEqual([150, 75, 255, 255]);
    expect(px(adjust(one([100, 50, 200, 255]), { brightness: -50, contrast: 0, saturation: 0 }), 0, 0)).toEqual([0, 0, 0, 255]);
  });

  it('contrast(a): C·a + 0.5 − 0.5a', () => {
    // a = 1.5: 100·1.5 + 127.5 − 0.5·1.5·255 = 86.25 ; 200 → 236.25
    expect(px(adjust(one([100, 200, 0, 255]), { brightness: 0, contrast: 25, saturation: 0 }), 0, 0)).toEqual([86, 236, 0, 255]);
    // a = 0: everything becomes mid grey
    expect(px(adjust(one([10, 240, 90, 255]), { brightness: 0, contrast: -50, saturation: 0 }), 0, 0)).toEqual([128, 128, 128, 255]);
  });

  it('saturate(s) with the 0.213/0.715/0.072 matrix', () => {
    // s = 0: luminance grey. 0.213·200 + 0.715·100 + 0.072·50 = 117.7
    expect(px(adjust(one([200, 100, 50, 255]), { brightness: 0, contrast: 0, saturation: -50 }), 0, 0)).toEqual([118, 118, 118, 255]);
    // s = 2: R = (0.213 + 1.574)·200 + (0.715 − 1.43)·100 + (0.072 − 0.144)·50 = 357.4 − 71.5 − 3.6 → clamped 255
    //        G = (0.213 − 0.426)·200 + (0.715 + 0.57)·100 − 3.6 = −42.6 + 128.5 − 3.6 = 82.3
    //        B = −42.6 + (0.715 − 1.43)·100 + (0.072 + 1.856)·50 = −42.6 − 71.5 + 96.4 = −17.7 → 0
    expect(px(adjust(one([200, 100, 50, 255]), { brightness: 0, contrast: 0, saturation: 50 }), 0, 0)).toEqual([255, 82, 0, 255]);
  });

  it('applies brightness, then contrast, then saturation, clamping after each', () => {
    // brightness 2: 200 → 255 (clamped) ; contrast 1.5: (255 − 127.5)·1.5 + 127.5 = 318.75 → 255
    expect(px(adjust(one([200, 20, 20, 128]), { brightness: 50, contrast: 25, saturation: 0 }), 0, 0)).toEqual([255, 0, 0, 128]);
  });

  it('leaves alpha and all-zero adjustments alone', () => {
    const source = one([1, 2, 3, 4]);
    expect(adjust(source, { brightness: 0, contrast: 0, saturation: 0 })).toBe(source);
    expect(px(source, 0, 0)).toEqual([1, 2, 3, 4]);
  });
});

describe('flatten onto the background colour', () => {
  it('composites by alpha and makes every pixel opaque', () => {
    const out = flatten(image(3, 1, [[0, 0, 0, 0], [0, 0, 255, 255], [200, 100, 0, 128]]), '#ff0000');
    expect(px(out, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(out, 1, 0)).toEqual([0, 0, 255, 255]);
    // 200·0.502 + 255·0.498 = 227.4 ; 100·0.502 = 50.2 ; 0
    expect(px(out, 2, 0)).toEqual([227, 50, 0, 255]);
  });
  it('parses #rrggbb, falling back to white', () => {
    expect(parseHexColour('#1a2B3c')).toEqual([26, 43, 60]);
    expect(parseHexColour('red')).toEqual([255, 255, 255]);
  });
});
