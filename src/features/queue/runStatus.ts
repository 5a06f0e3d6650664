import type { summarise } from '../../conversion/jobs.ts';

export type RunCounts = ReturnType<typeof summarise>;

/** In 5-second steps under a minute, whole minutes above: a countdown that changes the line once a second is noise. */
export function formatTimeLeft(seconds: number): string {
  return seconds < 60 ? `${Math.max(5, Math.round(seconds / 5) * 5)} s left` : `${Math.round(seconds / 60)} min left`;
}

/**
 * How many images a minute the run has done, once it has run long enough for the figure to mean something (a long
 * batch's story: a thousand photos take an hour); null before.
 */
export function perMinute(settled: number, elapsedMs: number): number | null {
  if (elapsedMs < RATE_AFTER_MS || settled < RATE_AFTER_IMAGES) return null;
  return Math.max(1, Math.round((settled / elapsedMs) * 60_000));
}

/** The rate is said from half a minute into a run, and three images done. */
const RATE_AFTER_MS = 30_000;
const RATE_AFTER_IMAGES = 3;

/**
 * The latest run in a line: how far it is, about how long is left and its pace, then how it ended. The pace comes
 * last: on a narrow phone the line is cut at its end (one line, of one size: the status's relayout boundary).
 */
export function runStatus({ running, completed, failed }: RunCounts, timeLeftMs: number | null, elapsedMs: number): string {
  const settled = completed + failed;
  const total = settled + running;
  const failures = failed > 0 ? `, ${failed} failed` : '';
  if (running === 0) return `Finished: ${settled} of ${total} done${failures}`;
  const rate = perMinute(settled, elapsedMs);
  return `Converting… ${settled} of ${total} done${failures}${timeLeftMs === null ? '' : ` · about ${formatTimeLeft(timeLeftMs / 1000)}`}${rate === null ? '' : ` · ${rate} a minute`}`;
}
