import { readFileSync, readdirSync } from 'node:fs';
import { cpuByThread, cpuUsed, mergeReading, type ThreadCpu } from './cpu';

/** Proportional set size (shared pages split among sharers) of a process, in kB; 0 if it is gone. */
function pssKb(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Every process under `root` (the bench's own children: Chromium's browser, renderer, GPU and utility processes). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/** Chromium's processes among the bench's descendants. */
function chromiumProcesses(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return /chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/**
 * Samples Chromium's processes every 200 ms, with one walk of /proc per sample: the peak of their total PSS
 * (renderer and its workers included), and the CPU seconds each thread group used (see cpu.ts).
 */
export class ChromiumSampler {
  private timer: ReturnType<typeof setInterval> | null = null;
  private peakKb = 0;
  private cpuBefore = new Map<string, ThreadCpu>();
  private cpuLatest = new Map<string, ThreadCpu>();

  /** Total PSS of Chromium's processes now, in MB: the idle page, before a batch. */
  static currentMb(): number {
    return Math.round(chromiumProcesses().reduce((sum, pid) => sum + pssKb(pid), 0) / 1024);
  }

  start(): void {
    this.peakKb = 0;
    this.cpuBefore = cpuByThread(chromiumProcesses());
    this.cpuLatest = new Map(this.cpuBefore);
    this.sample();
    this.timer = setInterval(() => this.sample(), 200);
  }

  private sample(): void {
    const pids = chromiumProcesses();
    this.peakKb = Math.max(this.peakKb, pids.reduce((sum, pid) => sum + pssKb(pid), 0));
    mergeReading(this.cpuLatest, cpuByThread(pids));
  }

  /** Peak memory in MB and CPU seconds per thread group since start(); a later call returns the same figures. */
  stop(): { peakMemoryMb: number; cpu: Record<string, number> } {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sample();
    }
    return { peakMemoryMb: Math.round(this.peakKb / 1024), cpu: cpuUsed(this.cpuBefore, this.cpuLatest) };
  }
}
