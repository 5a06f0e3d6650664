import { readFileSync } from 'node:fs';
import { threadIds } from '../chromium-processes.ts';

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

/** A thread's CPU seconds so far, and the group it counts in. */
export interface ThreadCpu {
  group: string;
  seconds: number;
}

/** CPU seconds used so far by each thread of the processes `pids`, keyed by "pid/tid". */
export function cpuByThread(pids: number[]): Map<string, ThreadCpu> {
  const threads = new Map<string, ThreadCpu>();
  for (const pid of pids) {
    const type = processType(pid);
    for (const tid of threadIds(pid)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        threads.set(`${pid}/${tid}`, { group: threadGroup(type, name), seconds: ticks / TICKS_PER_SECOND });
      } catch {
        // The thread ended while we looked.
      }
    }
  }
  return threads;
}

/**
 * Folds a new reading into `latest`: each thread keeps its newest figure, and a thread that has ended keeps the last
 * one read. (Summing a group's live threads instead lost all of a worker's time once the worker was replaced, as
 * browser-image-compression does for every image.)
 */
export function mergeReading(latest: Map<string, ThreadCpu>, reading: Map<string, ThreadCpu>): void {
  for (const [thread, cpu] of reading) latest.set(thread, cpu);
}

/**
 * Seconds per thread group between a first reading and the merged latest ones, largest first, groups under 0.05 s
 * left out. A thread that ends between two samples loses at most its last 200 ms; the UI thread is
 * `renderer/chromium` (a process's main thread carries its name).
 */
export function cpuUsed(before: Map<string, ThreadCpu>, latest: Map<string, ThreadCpu>): Record<string, number> {
  const groups = new Map<string, number>();
  for (const [thread, { group, seconds }] of latest) groups.set(group, (groups.get(group) ?? 0) + seconds - (before.get(thread)?.seconds ?? 0));
  const used = [...groups].map(([group, seconds]) => [group, Math.round(seconds * 100) / 100] as const);
  return Object.fromEntries(used.filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]));
}
