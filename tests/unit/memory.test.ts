import { describe, expect, it } from 'vitest';
import { decodedBytes, decodedBytesBudget, deviceMemoryGb, megapixels, pixelLimit } from '../../core/memory';

const MB = 1024 * 1024;
const twelveMp = decodedBytes({ width: 4000, height: 3000 });

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

describe('decodedBytesBudget', () => {
  it('lets one 12 MP photo run at a time on a 2 GB phone, two on 4 GB, three (the slots) on 8 GB', () => {
    expect(Math.floor(decodedBytesBudget(2) / twelveMp)).toBe(1);
    expect(Math.floor(decodedBytesBudget(4) / twelveMp)).toBe(2);
    expect(Math.floor(decodedBytesBudget(8) / twelveMp)).toBeGreaterThanOrEqual(3);
  });

  it('lets three 2 MP photos run at once even on a 1 GB phone', () => {
    expect(decodedBytesBudget(1) / decodedBytes({ width: 1600, height: 1200 })).toBeGreaterThanOrEqual(3);
    expect(decodedBytesBudget(1)).toBe(24 * MB);
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
