import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ssimulacra2Metric, type Ssimulacra2 } from '../../wasm/ssimulacra2/metric.ts';
import { ssimulacra2Pairs } from './support/ssimulacra2Pairs.ts';

/** The committed build (wasm/ssimulacra2/build.sh), run as the workers run it: compiled, instantiated, no glue. */
let score: Ssimulacra2;
beforeAll(async () => {
  score = await ssimulacra2Metric(await WebAssembly.compile(readFileSync(new URL('../../wasm/ssimulacra2/ssimulacra2.wasm', import.meta.url))));
});

/**
 * The reference implementation's scores of the same pixels: jpegli's tools/ssimulacra2 (the libjxl tool, split out)
 * at the revision wasm/jpegli/sources.sh pins, built by tests/bench/build-ssimulacra2.sh and run by
 * tests/bench/ssimulacra2-reference.ts on the pairs of support/ssimulacra2Pairs.ts written as PNGs.
 */
const REFERENCE: Record<string, number> = {
  identical: 100.0,
  'noise ±3': 89.6173,
  'noise ±12': 55.3736,
  'box blur 1': 68.455,
  'posterized to 12 levels': 46.8646,
  '8 × 8 blocks': 75.5445,
  '100 × 80, noise ±6 (fewer scales)': 73.7676,
  '640 × 480, blocks': 76.9758,
  '640 × 480, noise ±2': 91.5587,
};

/**
 * How far from the reference's a score may be. The port computes in floats as the reference does, but without its
 * fused multiply-adds and with libm's cube root for its approximation: on JPEGs of real photos the scores stayed
 * within 0.1 below 80 and 0.55 above (the steepest end, where the maps are differences of nearly equal numbers).
 */
const TOLERANCE = 0.6;

describe('SSIMULACRA2 against the reference implementation', () => {
  for (const pair of ssimulacra2Pairs()) {
    it(`${pair.name}: ${REFERENCE[pair.name]}`, () => {
      expect(REFERENCE[pair.name]).toBeDefined();
      expect(Math.abs(score(pair.original, pair.distorted) - REFERENCE[pair.name]!)).toBeLessThanOrEqual(TOLERANCE);
    });
  }

  it('orders distortions as the reference does', () => {
    const pairs = ssimulacra2Pairs();
    const ours = pairs.map((pair) => score(pair.original, pair.distorted));
    const theirs = pairs.map((pair) => REFERENCE[pair.name]!);
    for (let i = 0; i < pairs.length; i++) for (let j = 0; j < pairs.length; j++) if (theirs[i]! > theirs[j]! + 2 * TOLERANCE) expect(ours[i]).toBeGreaterThan(ours[j]!);
  });
});

describe('SSIMULACRA2 on transparent images', () => {
  const pair = ssimulacra2Pairs()[0]!;
  const withAlpha = (alphaAt: (x: number, y: number) => number) => {
    const data = new Uint8ClampedArray(pair.original.data);
    for (let y = 0; y < pair.original.height; y++) for (let x = 0; x < pair.original.width; x++) data[(y * pair.original.width + x) * 4 + 3] = alphaAt(x, y);
    return { ...pair.original, data };
  };

  it('scores the same pixels and alpha as identical', () => {
    const image = withAlpha((x) => x % 256);
    expect(score(image, image)).toBeCloseTo(100, 4);
  });

  it('sees a difference in alpha alone, over one background or the other', () => {
    expect(score(withAlpha(() => 255), withAlpha((x) => (x < 128 ? 255 : 128)))).toBeLessThan(60);
  });
});

describe('SSIMULACRA2 refuses what it cannot score', () => {
  it('images of different sizes', () => {
    const [a, , , , , , small] = ssimulacra2Pairs();
    expect(() => score(a!.original, small!.original)).toThrow(/same size/);
  });

  it('images under 8 × 8', () => {
    const tiny = { data: new Uint8ClampedArray(7 * 7 * 4).fill(255), width: 7, height: 7 };
    expect(() => score(tiny, tiny)).toThrow(/8 × 8/);
  });
});
