import { describe, expect, it } from 'vitest';
import { perMinute, runStatus } from '../../src/features/queue/runStatus.ts';

const MINUTE = 60_000;

describe("the action bar's line for a run", () => {
  it('says how far a run is, the time left, then its pace once it has run half a minute with three images done', () => {
    expect(runStatus({ running: 3, completed: 0, failed: 0 }, null, 1000)).toBe('Converting… 0 of 3 done');
    expect(runStatus({ running: 3, completed: 1, failed: 0 }, 20_000, 10_000)).toBe('Converting… 1 of 4 done · about 20 s left');
    expect(runStatus({ running: 880, completed: 118, failed: 2 }, 63 * MINUTE, 8.5 * MINUTE)).toBe('Converting… 120 of 1000 done, 2 failed · about 63 min left · 14 a minute');
  });

  it('ends with what came of the run', () => {
    expect(runStatus({ running: 0, completed: 997, failed: 3 }, null, 70 * MINUTE)).toBe('Finished: 1000 of 1000 done, 3 failed');
  });

  it('a pace of its own: none too early, at least one a minute', () => {
    expect(perMinute(2, 5 * MINUTE)).toBeNull();
    expect(perMinute(40, 29_000)).toBeNull();
    expect(perMinute(3, 30_000)).toBe(6);
    expect(perMinute(3, 30 * MINUTE)).toBe(1);
  });
});
