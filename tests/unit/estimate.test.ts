import { describe, expect, it } from 'vitest';
import { centredPart } from '../../core/geometry.ts';
import { estimateBytes, estimateText, filesToSample, roughBytes, type EstimatedFile } from '../../src/features/queue/estimate.ts';

const file = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name);
const entry = (name: string, bytes: number, format: EstimatedFile['format'], pixels: number, outputPixels = pixels, cap: number | null = null): EstimatedFile => ({
  file: file(name, bytes),
  format,
  inputPixels: pixels,
  outputPixels,
  cap,
});
/** A sample whose part weighs `bytesPerPixel` per pixel over a megapixel of an output of `outputPixels`. */
const sample = (bytesPerPixel: number, outputPixels: number) => ({ bytes: bytesPerPixel * 1_000_000, pixels: 1_000_000, outputPixels });

describe('the batch estimate', () => {
  it('samples the heaviest file of each source format first, then the heaviest left, three at most', () => {
    const files = [entry('a.jpg', 3_000_000, 'jpeg', 12e6), entry('b.jpg', 400_000, 'jpeg', 12e6), entry('c.png', 200_000, 'png', 1e5), entry('d.jpg', 2_000_000, 'jpeg', 12e6), entry('e.jpg', 100, 'jpeg', 1e4)];
    expect(filesToSample(files).map((f) => f.file.name)).toEqual(['a.jpg', 'c.png', 'd.jpg']);
  });

  it("a sampled file is its sample's output; the others are their bytes, scaled by their pixels, at their format's ratio", () => {
    const busy = entry('busy.jpg', 3_000_000, 'jpeg', 12e6);
    const smooth = entry('smooth.jpg', 300_000, 'jpeg', 12e6);
    const estimate = estimateBytes([busy, smooth], new Map([[busy.file, sample(0.1, 12e6)]]));
    // busy: 0.1 B/px × 12 MP = 1.2 MB; the ratio is 1.2 MB / 3 MB = 0.4, so smooth (a tenth of busy's bytes) is 120 KB.
    expect(estimate).toBeCloseTo(1_200_000 + 120_000, -1);
  });

  it('a resize scales a file by the square root of its change in pixels; a format with no sample takes every sample', () => {
    const sampled = entry('a.jpg', 1_000_000, 'jpeg', 4e6, 1e6);
    const other = entry('b.webp', 1_000_000, 'webp', 9e6, 1e6);
    // a: 0.2 B/px × 1 MP = 200 KB, against 1 MB × √(1/4) expected: a ratio of 0.4. b: 1 MB × √(1/9) × 0.4 ≈ 133 KB.
    expect(estimateBytes([sampled, other], new Map([[sampled.file, sample(0.2, 1e6)]]))).toBeCloseTo(200_000 + 400_000 / 3, -1);
  });

  it('an output never weighs more than its cap (the target size, or the original kept when smaller)', () => {
    const big = entry('a.jpg', 1_000_000, 'jpeg', 1e6, 1e6, 150_000);
    expect(estimateBytes([big], new Map([[big.file, sample(0.5, 1e6)]]))).toBe(150_000);
  });

  it('no sample yet, no estimate', () => {
    expect(estimateBytes([entry('a.jpg', 10, 'jpeg', 1)], new Map())).toBe(0);
  });

  it('reads as "About 14 MB for 50 images · −72%"', () => {
    expect(estimateText(14 * 1024 * 1024, 50, 50 * 1024 * 1024)).toBe('About 14 MB for 50 images · −72%');
    expect(estimateText(4.24 * 1024 * 1024, 1, 4 * 1024 * 1024)).toBe('About 4.2 MB for 1 image · +6%');
    expect(roughBytes(830 * 1024)).toBe('830 KB');
    expect(roughBytes(512)).toBe('512 bytes');
  });

  it('samples the centre of an output, a megapixel of its own shape at most', () => {
    expect(centredPart({ width: 4000, height: 3000 }, 1_000_000)).toEqual({ x: 1423, y: 1067, width: 1154, height: 866 });
    expect(centredPart({ width: 400, height: 300 }, 1_000_000)).toEqual({ x: 0, y: 0, width: 400, height: 300 });
  });
});
