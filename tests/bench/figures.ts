/**
 * What a batch's page did, from the observers app-instrument.ts (and the baselines' instrument.js) leave in it:
 * its long tasks and long frames, and its taps (Event Timing). Shared by the bench (run.ts) and its A/B comparison
 * (compare.ts).
 */

export interface LongTaskFigures {
  count: number;
  longestMs: number;
  totalBlockingMs: number;
  /** Long animation frames (≥ 50 ms from input or script to paint). */
  longFrames: number;
  /** Each long task as [ms after Convert, duration ms], to see where they fall. */
  at?: [number, number][];
}

/**
 * Where a tap's time went, for its slowest event (Event Timing): waiting for the UI thread (input to its handlers),
 * its handlers (with React's urgent render, which a discrete event flushes before it returns), and from them to the
 * next paint (rendering, and waiting for a frame).
 */
export interface TapParts {
  waitingMs: number;
  handlersMs: number;
  toPaintMs: number;
}

/** Taps during a batch (Event Timing): the slowest, from input to the next paint, and the Convert tap's. */
export interface TapFigures {
  taps: number;
  slowestMs: number;
  /** The slowest tap's time, in its parts. */
  slowest: TapParts | null;
  /** The median tap, of those Event Timing reports (16 ms or more); missing in reports from before it was kept. */
  medianMs?: number;
  /**
   * The taps as Chrome's Interaction to Next Paint reads a page of many: the slowest once one tap in every 50 is set
   * aside (the slowest ones), so that a long batch's hundreds of taps are not read by their single worst.
   */
  inpMs?: number;
  convertTapMs: number | null;
  /**
   * The slowest of the same taps on the idle page, throttled alike, before Convert: what a tap costs with no batch
   * running, so that the batch's figure shows what the batch adds.
   */
  idleSlowestMs: number | null;
}

export function longTaskFigures(bench: Pick<PageRecord, 'longTasks' | 'frames'>, from: number, to: number): LongTaskFigures {
  // A task running at `from` counts: the Convert tap's own task begins before the click that marks the batch's start
  // (its pointer events come first), and it is the batch's first work (a 154 ms one went uncounted so).
  const tasks = bench.longTasks.filter((t) => t.start + t.duration >= from && t.start <= to);
  return {
    count: tasks.length,
    longestMs: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
    totalBlockingMs: Math.round(tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0)),
    longFrames: bench.frames.filter((f) => f.start + f.duration >= from && f.start <= to).length,
    at: tasks.map((t) => [Math.round(t.start - from), Math.round(t.duration)]),
  };
}

export interface BenchEvent {
  name: string;
  interactionId: number;
  start: number;
  duration: number;
  processingStart: number;
  processingEnd: number;
}

/** A span on the page's clock: a long task, a long animation frame. */
export interface PageSpan {
  start: number;
  duration: number;
}

/**
 * What the bench's observers leave in a page as `window.__bench` (the app's: app-instrument.ts; the baselines':
 * baselines/instrument.js): when Convert was clicked and the batch finished, and the page's long tasks, long frames
 * and input events.
 */
export interface PageRecord {
  convertAt: number;
  finishedAt: number;
  longTasks: PageSpan[];
  frames: PageSpan[];
  events: BenchEvent[];
}

/**
 * Each interaction's latency is its longest event (Event Timing: input to the next paint); the Convert tap is the
 * interaction that began last before Convert's handler ran.
 */
export function tapFigures(events: BenchEvent[], convertAt: number, from: number, to: number, idle: [number, number]): TapFigures {
  const interactions = interactionsOf(events);
  const convertTap = interactions.filter((i) => i.firstStart <= convertAt + 1).sort((a, b) => b.firstStart - a.firstStart)[0];
  const during = interactions.filter((i) => i.firstStart >= from && i.firstStart <= to);
  const slowestFirst = during.sort((a, b) => b.duration - a.duration);
  const slowest = slowestFirst[0];
  const idleTaps = interactions.filter((i) => i.firstStart >= idle[0] && i.firstStart <= idle[1]);
  return {
    taps: during.length,
    slowestMs: Math.round(slowest?.duration ?? 0),
    slowest: slowest
      ? {
          waitingMs: Math.round(slowest.processingStart - slowest.start),
          handlersMs: Math.round(slowest.processingEnd - slowest.processingStart),
          toPaintMs: Math.round(slowest.start + slowest.duration - slowest.processingEnd),
        }
      : null,
    medianMs: Math.round(slowestFirst[Math.floor(slowestFirst.length / 2)]?.duration ?? 0),
    inpMs: Math.round(slowestFirst[Math.floor(slowestFirst.length / 50)]?.duration ?? 0),
    convertTapMs: convertTap ? Math.round(convertTap.duration) : null,
    idleSlowestMs: idleTaps.length > 0 ? Math.round(Math.max(...idleTaps.map((i) => i.duration))) : null,
  };
}

/** Each interaction as its slowest event (its latency, and where that event's time went), with when it began. */
export function interactionsOf(events: BenchEvent[]): (BenchEvent & { firstStart: number })[] {
  const byInteraction = new Map<number, BenchEvent & { firstStart: number }>();
  for (const e of events) {
    const before = byInteraction.get(e.interactionId);
    const firstStart = Math.min(before?.firstStart ?? Infinity, e.start);
    byInteraction.set(e.interactionId, before && before.duration >= e.duration ? { ...before, firstStart } : { ...e, firstStart });
  }
  return [...byInteraction.values()];
}

/**
 * The same taps on the idle page, before the batch, while one worker of the page's own spins: what this machine
 * allows a tap while one job runs, with none of the batch's work on the page's thread (app-page.ts,
 * tapWithOneWorkerBusy). The batch's taps and long tasks are read against it.
 */
export interface OneWorkerBusyFigures {
  taps: number;
  slowestMs: number;
  longTasks: number;
  longestTaskMs: number;
}

export function oneWorkerBusyFigures(bench: Pick<PageRecord, 'events' | 'longTasks'>, window: [number, number]): OneWorkerBusyFigures {
  const [from, to] = window;
  const taps = interactionsOf(bench.events).filter((i) => i.firstStart >= from && i.firstStart <= to);
  const tasks = bench.longTasks.filter((t) => t.start >= from && t.start <= to);
  return {
    taps: taps.length,
    slowestMs: Math.round(Math.max(0, ...taps.map((i) => i.duration))),
    longTasks: tasks.length,
    longestTaskMs: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
  };
}

