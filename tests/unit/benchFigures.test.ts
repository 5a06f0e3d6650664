import { describe, expect, it } from 'vitest';
import { median } from '../../src/lib/median.ts';
import { benchmarkPage, mergeResults } from '../bench/report.ts';
import { longTaskFigures, oneWorkerBusyFigures, tapFigures, type BenchEvent } from '../bench/figures.ts';

/** One Event Timing entry: `wait` from input to the handlers, `handlers` in them, the rest to the next paint. */
const event = (interactionId: number, name: string, start: number, { wait, handlers, duration }: { wait: number; handlers: number; duration: number }): BenchEvent => ({
  name,
  interactionId,
  start,
  duration,
  processingStart: start + wait,
  processingEnd: start + wait + handlers,
});

describe('bench figures: long tasks from Convert to the batch\'s end', () => {
  it('counts the tasks that run in the window, the one running at its start too (the Convert tap\'s own), with their blocking time and the long frames beside them', () => {
    const figures = longTaskFigures(
      {
        longTasks: [
          // Running when the window opens: the Convert tap's task.
          { start: 90, duration: 300 },
          // Over before it.
          { start: 20, duration: 60 },
          { start: 150, duration: 60 },
          { start: 400, duration: 120 },
          { start: 1200, duration: 80 },
        ],
        frames: [{ start: 140, duration: 70 }, { start: 1300, duration: 90 }],
      },
      100,
      1000,
    );
    expect(figures).toEqual({ count: 3, longestMs: 300, totalBlockingMs: 250 + 10 + 70, longFrames: 1, at: [[-10, 300], [50, 60], [300, 120]] });
  });
});

describe('bench figures: taps', () => {
  it('takes an interaction\'s latency from its slowest event, and where that event\'s time went', () => {
    const convertAt = 1000;
    const events = [
      // The Convert tap: pointerup then click, the click the slower.
      event(1, 'pointerup', 980, { wait: 5, handlers: 1, duration: 40 }),
      event(1, 'click', 980, { wait: 15, handlers: 4, duration: 88 }),
      // Two taps during the batch.
      event(2, 'click', 1600, { wait: 60, handlers: 6, duration: 96 }),
      event(3, 'pointerup', 2200, { wait: 100, handlers: 2, duration: 136 }),
      event(3, 'click', 2200, { wait: 104, handlers: 7, duration: 120 }),
      // On the idle page before Convert.
      event(4, 'click', 200, { wait: 10, handlers: 3, duration: 48 }),
      event(5, 'click', 800, { wait: 12, handlers: 3, duration: 64 }),
    ];
    expect(tapFigures(events, convertAt, convertAt + 1, 3000, [100, 900])).toEqual({
      taps: 2,
      slowestMs: 136,
      slowest: { waitingMs: 100, handlersMs: 2, toPaintMs: 34 },
      medianMs: 96,
      inpMs: 136,
      convertTapMs: 88,
      idleSlowestMs: 64,
    });
  });

  it('has no slowest tap when none came during the batch, and no idle figure without idle taps', () => {
    const figures = tapFigures([event(1, 'click', 990, { wait: 5, handlers: 2, duration: 40 })], 1000, 1001, 2000, [0, 0]);
    expect(figures).toEqual({ taps: 0, slowestMs: 0, slowest: null, medianMs: 0, inpMs: 0, convertTapMs: 40, idleSlowestMs: null });
  });

  it('reads many taps as INP does, setting aside the slowest one in every 50, and gives their median', () => {
    // 120 taps during the batch, of 1…120 ms: two set aside, so the third slowest (118 ms) stands for them.
    const events = Array.from({ length: 120 }, (_, i) => event(i + 1, 'click', 2000 + i * 600, { wait: 1, handlers: 1, duration: i + 1 }));
    const figures = tapFigures(events, 1000, 1001, 1e6, [0, 0]);
    expect(figures).toMatchObject({ taps: 120, slowestMs: 120, inpMs: 118, medianMs: 60 });
    // 49 taps: none set aside.
    expect(tapFigures(events.slice(0, 49), 1000, 1001, 1e6, [0, 0]).inpMs).toBe(49);
  });
});

describe('bench figures: taps with one worker busy', () => {
  it('counts the interactions and long tasks that begin in its window, each tap as its slowest event', () => {
    const events = [
      // Before the window: an idle tap.
      event(1, 'click', 100, { wait: 5, handlers: 2, duration: 200 }),
      // In it: two taps, the second's pointerup the slower of its events.
      event(2, 'click', 1000, { wait: 20, handlers: 5, duration: 72 }),
      event(3, 'pointerup', 1600, { wait: 70, handlers: 1, duration: 112 }),
      event(3, 'click', 1600, { wait: 74, handlers: 6, duration: 96 }),
      // After it: the Convert tap.
      event(4, 'click', 3000, { wait: 30, handlers: 9, duration: 300 }),
    ];
    const longTasks = [
      { start: 500, duration: 90 },
      { start: 1610, duration: 51 },
      { start: 3010, duration: 120 },
    ];
    expect(oneWorkerBusyFigures({ events, longTasks }, [900, 2500])).toEqual({ taps: 2, slowestMs: 112, longTasks: 1, longestTaskMs: 51 });
  });

  it('is all zeros when nothing happened in its window', () => {
    expect(oneWorkerBusyFigures({ events: [], longTasks: [] }, [0, 100])).toEqual({ taps: 0, slowestMs: 0, longTasks: 0, longestTaskMs: 0 });
  });
});

describe('bench figures: median', () => {
  it('is the middle value, or the mean of the two middle ones, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([8, 2, 6, 4])).toBe(5);
  });
});

describe('bench report: a run of some scenarios replaces only theirs', () => {
  const run = (date: string) => ({ date, cpu: 'cpu', cores: 2, browserVersion: '1', runs: 1, command: 'npm run bench', photos: false });
  const recorded = (scenario: string, date: string) => ({ scenario, run: run(date), result: { kind: 'failed' as const, id: scenario, title: scenario, error: date } });

  it('keeps the others as they were, in the scenarios’ order', () => {
    const merged = mergeResults([recorded('webp', 'old'), recorded('phone', 'old'), recorded('phone', 'old')], [recorded('phone', 'new'), recorded('coldstart', 'new')], ['coldstart', 'webp', 'phone']);
    expect(merged.map((r) => `${r.scenario} ${r.run.date}`)).toEqual(['coldstart new', 'webp old', 'phone new']);
  });

  it('says how many runs a scenario made: its own when it fixes them (one, for the memory scenario), not the command line\'s', () => {
    const contender = (runsMs: number[]) => ({ name: 'app', batchMs: 1, zipMs: 1, runsMs, longTasks: null, peakMemoryMb: null, overIdleMb: null, totalBytes: null, ssim: null });
    const batch = (id: string, runsMs: number[]) => ({ scenario: id, run: { ...run('today'), runs: 3 }, result: { kind: 'batch' as const, id, title: id, contenders: [contender(runsMs)], goals: [] } });
    const page = benchmarkPage([batch('webp', [1, 2, 3]), batch('memory', [1])]);
    expect(page.match(/medians of \d+ run/g)).toEqual(['medians of 3 run', 'medians of 1 run']);
  });

  it('reports a figure the run\'s inputs do not answer its goal with, without judging it', () => {
    const contender = { name: 'app', batchMs: 1, zipMs: 1, runsMs: [1], longTasks: null, peakMemoryMb: null, overIdleMb: null, totalBytes: null, ssim: null };
    const goals = [
      { label: 'bytes', max: 0.85, value: 1.09, heldOff: 'not at an equal look' },
      { label: 'time', max: 1.5, value: 1.48, heldOff: null },
      { label: 'taps', max: 100, value: 120 },
    ];
    const page = benchmarkPage([{ scenario: 'jpeg', run: run('today'), result: { kind: 'batch' as const, id: 'jpeg', title: 'jpeg', contenders: [contender], goals } }]);
    expect(page).toContain('- bytes: 1.09 (goal ≤ 0.85: not held against it here, not at an equal look)');
    expect(page).toContain('- time: 1.48 (goal ≤ 1.5: met)');
    expect(page).toContain('- taps: 120 (goal ≤ 100: not met)');
  });
});
