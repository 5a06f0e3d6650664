import { describe, expect, it } from 'vitest';
import { CONVERT_BLOCKED, planConvert } from '../../src/features/queue/convertPlan.ts';
import type { FileOutcome } from '../../src/conversion/jobs.ts';

const file = (name: string) => new File([new Uint8Array(200)], name, { type: 'image/png' });
const [a, b, c] = [file('a.png'), file('b.png'), file('c.png')];
const selected = [
  { id: 'a', file: a, isValid: true },
  { id: 'b', file: b, isValid: true },
  { id: 'c', file: c, isValid: false },
];
const outcomes = (entries: [File, string, FileOutcome][]) => {
  const map = new Map<File, Map<string, FileOutcome>>();
  for (const [f, key, outcome] of entries) map.set(f, (map.get(f) ?? new Map()).set(key, outcome));
  return map;
};
const ok = { targetSizeMissing: false };

describe('planConvert: what Convert would start', () => {
  it('starts every valid file not yet converted with these settings', () => {
    const plan = planConvert(selected, outcomes([]), 'k1', ok);
    expect(plan.toConvert.map((f) => f.id)).toEqual(['a', 'b']);
    expect(plan).toMatchObject({ again: false, blocked: null });
    expect([...plan.states]).toEqual([['a', 'ready'], ['b', 'ready']]);
  });

  it('after a run, files converted with the same settings are done: no duplicate jobs, and Convert says why', () => {
    const plan = planConvert(selected, outcomes([[a, 'k1', 'completed'], [b, 'k1', 'completed']]), 'k1', ok);
    expect(plan.toConvert).toEqual([]);
    expect(plan.blocked).toBe(CONVERT_BLOCKED.allConverted);
    expect(plan.states.get('a')).toBe('converted');
  });

  it('a changed setting makes them convertible again, "again with new settings"', () => {
    const plan = planConvert(selected, outcomes([[a, 'k1', 'completed'], [b, 'k1', 'completed']]), 'k2', ok);
    expect(plan.toConvert.map((f) => f.id)).toEqual(['a', 'b']);
    expect(plan).toMatchObject({ again: true, blocked: null });
  });

  it('a file added after the run is converted alone, and that is not "again"', () => {
    const plan = planConvert(selected, outcomes([[a, 'k1', 'completed']]), 'k1', ok);
    expect(plan.toConvert.map((f) => f.id)).toEqual(['b']);
    expect(plan.again).toBe(false);
  });

  it('running and failed files are not started again; failed ones alone say to retry', () => {
    expect(planConvert(selected, outcomes([[a, 'k1', 'running'], [b, 'k1', 'running']]), 'k1', ok)).toMatchObject({ toConvert: [], blocked: null });
    const failed = planConvert(selected, outcomes([[a, 'k1', 'completed'], [b, 'k1', 'error']]), 'k1', ok);
    expect(failed).toMatchObject({ toConvert: [], blocked: CONVERT_BLOCKED.onlyFailed });
    expect(failed.states.get('b')).toBe('failed');
  });

  it('says why when there is nothing to convert, or the target size has no value', () => {
    expect(planConvert([], outcomes([]), 'k1', ok).blocked).toBe(CONVERT_BLOCKED.noFiles);
    expect(planConvert([selected[2]!], outcomes([]), 'k1', ok).blocked).toBe(CONVERT_BLOCKED.noValidFiles);
    expect(planConvert(selected, outcomes([]), 'k1', { targetSizeMissing: true }).blocked).toBe(CONVERT_BLOCKED.targetSizeMissing);
  });
});
