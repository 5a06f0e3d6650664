import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ; 100 on Linux everywhere in practice). */
const TICKS_PER_SECOND = 100;

/** A thread's group: its process type (browser, renderer, gpu-process, utility) and its name, numbers dropped. */
function threadGroup(processType: string, threadName: string): string {
  return `${processType}/${threadName.replace(/[\d/]+$/, '').trim()}`;
}

function processType(pid: number): string {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
  } catch {
    return 'gone';
  }
}

/** CPU seconds used so far by each thread group of the processes `pids`. */
export function cpuByThreadGroup(pids: number[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const pid of pids) {
    const type = processType(pid);
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        const group = threadGroup(type, name);
        totals.set(group, (totals.get(group) ?? 0) + ticks / TICKS_PER_SECOND);
      } catch {
        // The thread ended while we looked.
      }
    }
  }
  return totals;
}

/**
 * Folds a new reading into `latest`, keeping each group's largest total: a group whose threads end (a worker
 * that is replaced) drops in later readings, and keeps what it used while it was read.
 */
export function keepLargest(latest: Map<string, number>, reading: Map<string, number>): void {
  for (const [group, seconds] of reading) latest.set(group, Math.max(latest.get(group) ?? 0, seconds));
}

/**
 * Seconds per thread group between two readings, largest first, groups under 0.05 s left out. Threads that end
 * between samples lose their last share, so the figures are lower bounds; the UI thread is `renderer/chromium`
 * (a process's main thread carries its name).
 */
export function cpuUsed(before: Map<string, number>, latest: Map<string, number>): Record<string, number> {
  const used = [...latest].map(([group, seconds]) => [group, Math.round((seconds - (before.get(group) ?? 0)) * 100) / 100] as const);
  return Object.fromEntries(used.filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]));
}
