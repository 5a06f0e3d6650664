import { median } from '../lib/median.ts';

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
 * Each probe times the loop up to this many times and goes by the median: a run can land in a moment when DevTools'
 * throttling lets the thread through at full speed (its own thread, at a normal priority, waiting for a core on a
 * 2-core machine; the tests give it real-time priority: tests/phone-cpu.ts), or be interrupted on a fast page (the
 * app's own workers starting, a garbage collection).
 */
const PROBE_RUNS = 5;

/** The runs on one side of the line that settle the median of PROBE_RUNS: the probe stops there. */
const SETTLED_AT = Math.floor(PROBE_RUNS / 2) + 1;

function spin(steps: number): number {
  let state = 1;
  for (let i = 0; i < steps; i++) state = (Math.imul(state, 1103515245) + 12345) | 0;
  return state;
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
 * Times the probe on the calling thread, in a task of its own, until the verdict is settled (three timed runs as a
 * rule, after an untimed one): about 4 ms of a desktop's time, 18 ms on a thread 4× slower. The runs are timed back
 * to back in that one task (timed in tasks of their own, they began at full speed under DevTools' throttling as
 * often as not), and before a batch's first job starts (with a worker busy, the throttling thread itself waited for
 * a core and let runs through at full speed).
 */
export async function probePageSpeed(): Promise<number[]> {
  await nextTask();
  // The first run is not the page's speed either way: on a fast page it was up to 8× slower (V8 compiles the loop
  // again, even when it had run before), and under DevTools' throttling it often ran at full speed (the thread had
  // been idle). A whole untimed run first; after it, a fast page's runs were 1.0–1.3 ms bar one in eight, a 6× one's
  // 5.4–8.8 ms.
  let sink = spin(PROBE_STEPS);
  const times: number[] = [];
  while (!probeSettled(times)) {
    const start = performance.now();
    sink ^= spin(PROBE_STEPS);
    times.push(performance.now() - start);
  }
  // The result is used, so the loop cannot be optimised away.
  return sink === 0.5 ? [] : times;
}
