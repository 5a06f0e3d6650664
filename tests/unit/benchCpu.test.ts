import { describe, expect, it } from 'vitest';
import { cpuUsed, mergeReading, type ThreadCpu } from '../bench/cpu.ts';

const reading = (entries: [string, string, number][]) => new Map<string, ThreadCpu>(entries.map(([thread, group, seconds]) => [thread, { group, seconds }]));

describe('bench CPU accounting', () => {
  it('counts a replaced worker thread with what it used before it ended', () => {
    const before = reading([['10/1', 'renderer/chromium', 5]]);
    const latest = new Map(before);
    mergeReading(latest, reading([['10/1', 'renderer/chromium', 5.5], ['10/2', 'renderer/DedicatedWorker', 3]]));
    // The first worker ended; a new one took its place.
    mergeReading(latest, reading([['10/1', 'renderer/chromium', 6], ['10/3', 'renderer/DedicatedWorker', 2]]));
    expect(cpuUsed(before, latest)).toEqual({ 'renderer/DedicatedWorker': 5, 'renderer/chromium': 1 });
  });

  it('leaves out groups under 0.05 s and sorts the rest largest first', () => {
    const before = reading([['1/1', 'browser/chromium', 1], ['2/2', 'gpu-process/chromium', 1]]);
    const latest = reading([['1/1', 'browser/chromium', 1.04], ['2/2', 'gpu-process/chromium', 1.2], ['3/3', 'renderer/Compositor', 0.5]]);
    expect(Object.entries(cpuUsed(before, latest))).toEqual([['renderer/Compositor', 0.5], ['gpu-process/chromium', 0.2]]);
  });
});
