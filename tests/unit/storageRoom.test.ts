import { describe, expect, it } from 'vitest';
import { shortfallText, storageShortfall } from '../../src/features/queue/storageRoom.ts';

const GB = 1024 ** 3;

describe('whether a batch fits the device', () => {
  it('needs its sources and its outputs beside what the origin keeps already', () => {
    const room = { quota: 4 * GB, usage: 1 * GB };
    expect(storageShortfall(2 * GB, 0.9 * GB, room)).toBeNull();
    expect(storageShortfall(2 * GB, 1.5 * GB, room)).toEqual({ needBytes: 3.5 * GB, freeBytes: 3 * GB });
  });

  it('a browser that says nothing of its room, or an origin over its quota', () => {
    expect(storageShortfall(10 * GB, 10 * GB, null)).toBeNull();
    expect(storageShortfall(1, 0, { quota: 100, usage: 150 })).toEqual({ needBytes: 1, freeBytes: 0 });
  });

  it('says what it needs, the room left, and what happens then', () => {
    expect(shortfallText({ needBytes: 3.5 * GB, freeBytes: 3 * GB })).toBe(
      'This batch needs about 3.50 GB on this device, and the browser has 3.00 GB left: what does not fit stays in memory, so download before you leave.',
    );
  });
});
