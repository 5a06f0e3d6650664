/**
 * How fast the page's own thread runs script now: a fixed stretch of integer arithmetic, timed. A phone's CPU runs
 * it several times slower than a desktop's, as does a page under DevTools' CPU throttling, a phone in battery saver
 * or a hot one. The figure is what the page's thread gets, whatever the reason, at the moment it is asked.
 */

/** Steps of the timed loop: about a millisecond on a desktop core of the 2020s. */
const PROBE_STEPS = 1_000_000;

/**
 * Above this, the page's thread is slow: three times a desktop core's time for the probe (1.0 ms on this project's
 * bench machine; 4–5 ms with the page's CPU 4× slower, 6–7 ms at 6×).
 */
export const SLOW_PAGE_MS = 3;

/**
 * Each probe times the loop up to this many times and goes by the median: a time can land in a moment when DevTools'
 * throttling lets the thread through at full speed, and the first can be slow (below).
 */
const PROBE_RUNS = 5;

/** The runs on one side of the line that settle the median of PROBE_RUNS: the probe stops there. */
const SETTLED_AT = Math.floor(PROBE_RUNS / 2) + 1;

function spin(steps: number): number {
  let state = 1;
  for (let i = 0; i < steps; i++) state = (Math.imul(state, 1103515245) + 12345) | 0;
  return state;
}

/** The middle value of `times` (the upper middle of an even count). */
export function median(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export function isSlowPage(probeTimesMs: readonly number[]): boolean {
  return median(probeTimesMs) > SLOW_PAGE_MS;
}

/** Whether `times` already decide the median of PROBE_RUNS, whatever the runs left would give. */
export function probeSettled(times: readonly number[]): boolean {
  const slow = times.filter((time) => time > SLOW_PAGE_MS).length;
  return slow >= SETTLED_AT || times.length - slow >= SETTLED_AT;
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve));

/**
 * Times the probe on the calling thread, in a task of its own, until the verdict is settled (three runs as a rule):
 * about 4 ms of a desktop's time, 17 ms on a thread 4× slower. The runs are timed back to back in that one task
 * (timed in tasks of their own, they began at full speed under DevTools' throttling as often as not), and before a
 * batch's first job starts (with a worker busy, the throttling thread itself waited for a core and let runs through
 * at full speed).
 */
export async function probePageSpeed(): Promise<number[]> {
  await nextTask();
  // The loop's first run in a while is up to 7× slower (V8 compiles it again; seen even when it had run at
  // start-up): an untimed quarter run first, so the timed runs are of the page's speed.
  let sink = spin(PROBE_STEPS / 4);
  const times: number[] = [];
  while (!probeSettled(times)) {
    const start = performance.now();
    sink ^= spin(PROBE_STEPS);
    times.push(performance.now() - start);
  }
  // The result is used, so the loop cannot be optimised away.
  return sink === 0.5 ? [] : times;
}
