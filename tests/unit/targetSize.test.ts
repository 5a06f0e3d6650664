import { describe, expect, it } from 'vitest';
import { searchTargetSize } from '../../workers/pipeline/target-size.ts';

/** An encoder whose size is a known function of quality, recording what it was asked. */
function fakeEncoder(sizeAt: (quality: number) => number) {
  const asked: number[] = [];
  const encodeAt = async (quality: number) => {
    asked.push(quality);
    return new ArrayBuffer(Math.round(sizeAt(quality)));
  };
  return { asked, encodeAt };
}

const smooth = (q: number) => 1000 + 99_000 * q * q; // 1 KB at q→0, 100 KB at q = 1

describe('searchTargetSize', () => {
  it('starts at quality 0.8', async () => {
    const encoder = fakeEncoder(smooth);
    await searchTargetSize({ targetBytes: 50_000, encodeAt: encoder.encodeAt });
    expect(encoder.asked[0]).toBe(0.8);
  });

  it('stops as soon as a size is within 5% below the target', async () => {
    const encoder = fakeEncoder(smooth);
    const target = smooth(0.8) / 0.97; // the first attempt lands at 97% of the target
    const result = await searchTargetSize({ targetBytes: target, encodeAt: encoder.encodeAt });
    expect(result?.attempts).toBe(1);
    expect(encoder.asked).toEqual([0.8]);
  });

  it('bisects: 0.8 too big → 0.4 → 0.6 …, and lands within [0.95, 1] of the target', async () => {
    const encoder = fakeEncoder(smooth);
    const result = await searchTargetSize({ targetBytes: 30_000, encodeAt: encoder.encodeAt });
    expect(encoder.asked.slice(0, 3)).toEqual([0.8, 0.4, 0.6]);
    expect(result).not.toBeNull();
    expect(result!.bytes.byteLength).toBeLessThanOrEqual(30_000);
    expect(result!.bytes.byteLength).toBeGreaterThanOrEqual(0.95 * 30_000);
    expect(result!.attempts).toBe(encoder.asked.length);
  });

  it('never encodes more than 8 times', async () => {
    const encoder = fakeEncoder(smooth);
    // 1000 levels are too fine for 8 halvings to reach a 0.1% band.
    await searchTargetSize({ targetBytes: 30_000, encodeAt: encoder.encodeAt, levels: 1000, tolerance: 0.001 });
    expect(encoder.asked.length).toBe(8);
  });

  it('never returns a size over the target, and returns the largest that fitted when none is within 5%', async () => {
    // Steps of 10 KB: with a 25.5 KB target nothing lands in [24.2, 25.5] KB.
    const steps = (q: number) => 10_000 * Math.ceil(q * 10);
    const encoder = fakeEncoder(steps);
    const result = await searchTargetSize({ targetBytes: 25_500, encodeAt: encoder.encodeAt });
    expect(result!.bytes.byteLength).toBe(20_000);
  });

  it('stops early once neighbouring levels bracket the target, never repeating a level', async () => {
    const steps = (q: number) => 10_000 * Math.ceil(q * 10);
    const encoder = fakeEncoder(steps);
    const result = await searchTargetSize({ targetBytes: 25_500, encodeAt: encoder.encodeAt });
    // 0.20 fits (20 KB) and 0.21 does not (30 KB): no level lies between, so it stops after 7 of its 8 attempts.
    expect(encoder.asked).toEqual([0.8, 0.4, 0.2, 0.3, 0.25, 0.22, 0.21]);
    expect(result).toMatchObject({ quality: 0.2, attempts: 7 });
  });

  it('returns null when even the lowest quality is too big', async () => {
    const encoder = fakeEncoder(() => 5000);
    expect(await searchTargetSize({ targetBytes: 1000, encodeAt: encoder.encodeAt })).toBeNull();
    expect(Math.min(...encoder.asked)).toBe(0.01);
  });

  it('bisects whole percents by default, finer levels when the encoder takes them', async () => {
    const encoder = fakeEncoder(smooth);
    await searchTargetSize({ targetBytes: 30_000, encodeAt: encoder.encodeAt });
    for (const quality of encoder.asked) expect(Number.isInteger(Math.round(quality * 1e6) / 1e4)).toBe(true);
    const fine = fakeEncoder(smooth);
    await searchTargetSize({ targetBytes: 30_000, encodeAt: fine.encodeAt, levels: 1000, tolerance: 0.001 });
    expect(fine.asked.some((q) => !Number.isInteger(Math.round(q * 1e6) / 1e4))).toBe(true);
  });
});
