import { readFileSync, readdirSync } from 'node:fs';

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
export function chromiumProcesses(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return /chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/** Samples the total PSS of Chromium's processes (renderer and its workers included) and keeps the peak. */
export class MemorySampler {
  private timer: ReturnType<typeof setInterval> | null = null;
  peakMb = 0;

  start(): void {
    this.peakMb = 0;
    const sample = () => {
      const total = chromiumProcesses().reduce((sum, pid) => sum + pssKb(pid), 0) / 1024;
      this.peakMb = Math.max(this.peakMb, total);
    };
    sample();
    this.timer = setInterval(sample, 200);
  }

  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return Math.round(this.peakMb);
  }
}
