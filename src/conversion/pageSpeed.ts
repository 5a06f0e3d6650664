import { median } from '../lib/median';

/**
 * How fast the page's own thread runs script now: a fixed stretch of integer arithmetic, timed. A phone's CPU runs
 * it several times slower than a desktop's, as does a page under DevTools' CPU throttling, a phone in battery saver
 * or a hot one. The figure is what the page's thread gets, whatever the reason, at the moment it is asked.
 */

/**
 * Steps of the timed loop: about a quarter of a millisecond on a desktop core of the 2020s. Short, because the probe
 * runs as a batch starts, when a tap waits for whatever the page's thread is doing; four times as many steps made it
 * one task of 20–25 ms at 4× CPU, among the frames that show Convert's answer (docs/decisions/leave-the-page-a-core.md).
 */
const PROBE_STEPS = 250_000;

/**
 * Above this, the page's thread is slow: twice a desktop core's time for the probe (0.27–0.30 ms on this project's
 * bench machine, with a worker busy or not; 0.8–3.0 ms with the page's CPU 4× slower, 1.3–2.7 ms at 6×).
 */
export const SLOW_PAGE_MS = 0.6;

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
 * rule, after two untimed ones): under 2 ms of a desktop's time, 6 ms on a thread 4× slower. The runs are timed back
 * to back in that one task (timed in tasks of their own, they began at full speed under DevTools' throttling as
 * often as not), and before a batch's first job starts (with a worker busy, the throttling thread itself waited for
 * a core and let runs through at full speed).
 */
export async function probePageSpeed(): Promise<number[]> {
  await nextTask();
  // The first runs are not the page's speed either way: on a fast page they were up to 8× slower (V8 compiles the
  // loop again, even when it had run before, and the optimised code may come a run later), and under DevTools'
  // throttling the first often ran at full speed (the thread had been idle). Two whole untimed runs first: after one
  // only, a fast page's first timed run at a batch's start took 0.7–1.1 ms in four probes of six, after two in one of
  // six (the median settles it). On an idle page the medians were 0.27–0.30 ms at full speed and 0.8 ms or more at
  // 4× (30 probes each).
  let sink = spin(PROBE_STEPS) ^ spin(PROBE_STEPS);
  const times: number[] = [];
  while (!probeSettled(times)) {
    const start = performance.now();
    sink ^= spin(PROBE_STEPS);
    times.push(performance.now() - start);
  }
  // The result is used, so the loop cannot be optimised away.
  return sink === 0.5 ? [] : times;
}
