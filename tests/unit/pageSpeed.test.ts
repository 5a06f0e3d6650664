import { describe, expect, it } from 'vitest';
import { isSlowPage, probeSettled, SLOW_PAGE_MS } from '../../src/conversion/pageSpeed.ts';
import { median } from '../../src/lib/median.ts';
import { leavesPageACore } from '../../src/conversion/pools.ts';

describe('isSlowPage: the probe\'s times on the page\'s thread', () => {
  it('goes by the middle time, so one lucky or unlucky moment does not decide', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(isSlowPage([SLOW_PAGE_MS * 2, 0.5, SLOW_PAGE_MS * 3])).toBe(true);
    // A cold first run, then two quick ones: a fast page.
    expect(isSlowPage([SLOW_PAGE_MS * 2, 1, 1.1])).toBe(false);
    expect(isSlowPage([SLOW_PAGE_MS, SLOW_PAGE_MS, SLOW_PAGE_MS])).toBe(false);
  });
});

describe('probeSettled: when more runs could not change the verdict', () => {
  const slow = SLOW_PAGE_MS * 2;
  const fast = SLOW_PAGE_MS / 3;

  it('is three runs on one side of the line, out of at most five', () => {
    expect(probeSettled([slow, slow])).toBe(false);
    expect(probeSettled([slow, slow, slow])).toBe(true);
    expect(probeSettled([fast, fast, fast])).toBe(true);
    expect(probeSettled([slow, fast, slow, fast])).toBe(false);
    expect(probeSettled([slow, fast, slow, fast, fast])).toBe(true);
  });

  it('stops where the median of all five would say the same', () => {
    for (const runs of [[slow, fast, slow, slow], [fast, slow, fast, fast], [slow, slow, slow], [fast, slow, fast, slow, slow]]) {
      expect(probeSettled(runs)).toBe(true);
      const fill = isSlowPage(runs) ? fast : slow;
      const allFive = [...runs, ...Array.from({ length: 5 - runs.length }, () => fill)];
      expect(isSlowPage(allFive)).toBe(isSlowPage(runs));
    }
  });
});

describe('leavesPageACore: whether a batch runs one job fewer', () => {
  const slow = async () => true;
  const fast = async () => false;

  it('only when the workers would take every core and the page is slow', async () => {
    expect(await leavesPageACore({ cores: 2, workers: 2, pageSlow: slow })).toBe(true);
    expect(await leavesPageACore({ cores: 3, workers: 3, pageSlow: slow })).toBe(true);
    expect(await leavesPageACore({ cores: 2, workers: 2, pageSlow: fast })).toBe(false);
    // A phone of four or more cores has one to spare beside three workers.
    expect(await leavesPageACore({ cores: 8, workers: 3, pageSlow: slow })).toBe(false);
  });

  it('never with one worker, and never times the page when it would not matter', async () => {
    let timed = 0;
    const timing = async () => (timed++, true);
    expect(await leavesPageACore({ cores: 1, workers: 1, pageSlow: timing })).toBe(false);
    expect(await leavesPageACore({ cores: 8, workers: 3, pageSlow: timing })).toBe(false);
    expect(await leavesPageACore({ cores: null, workers: 3, pageSlow: timing })).toBe(false);
    expect(timed).toBe(0);
  });
});
