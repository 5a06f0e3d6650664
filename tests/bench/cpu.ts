import { readFileSync, readdirSync } from 'node:fs';
import { chromiumProcesses } from './memory';

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

/** CPU seconds used so far by each thread group of Chromium's processes. */
function cpuByThreadGroup(): Map<string, number> {
  const totals = new Map<string, number>();
  for (const pid of chromiumProcesses()) {
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
 * CPU seconds each thread group used between start() and stop(). Threads that end in between (a worker that is
 * replaced) lose their last share, so the figures are lower bounds; the UI thread is `renderer/chromium` (a process's main thread carries its name).
 */
export class CpuMeter {
  private before = new Map<string, number>();
  private peak = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;

  start(): void {
    this.before = cpuByThreadGroup();
    this.peak = new Map(this.before);
    // Sampled, so a thread group whose threads end before stop() still counts what it used while sampled.
    this.timer = setInterval(() => this.sample(), 500);
  }

  private sample(): void {
    for (const [group, seconds] of cpuByThreadGroup()) this.peak.set(group, Math.max(this.peak.get(group) ?? 0, seconds));
  }

  /** Seconds per thread group, largest first, groups under 0.05 s left out. */
  stop(): Record<string, number> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    const used = [...this.peak].map(([group, seconds]) => [group, Math.round((seconds - (this.before.get(group) ?? 0)) * 100) / 100] as const);
    return Object.fromEntries(used.filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]));
  }
}
