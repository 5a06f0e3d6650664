import { readFileSync, readdirSync } from 'node:fs';

/** Every process under `root` (the caller's own children: Chromium's browser, renderer, GPU and utility processes). */
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

/** Chromium's processes among this process's descendants (the browser the bench or a test worker launched). */
export function chromiumProcesses(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return /chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/** The ids of the process `pid`'s threads; none once it has ended. */
export function threadIds(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** The thread ids, in Chromium's processes, of the threads named `name` (as /proc shows it: 15 characters at most). */
export function chromiumThreadsNamed(name: string): number[] {
  const found: number[] = [];
  for (const pid of chromiumProcesses()) {
    for (const tid of threadIds(pid)) {
      try {
        if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === name) found.push(Number(tid));
      } catch {
        // The thread ended while we looked.
      }
    }
  }
  return found;
}

/** Proportional set size (shared pages split among sharers) of a process, in kB; 0 if it is gone. */
export function pssKb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * A process's resident anonymous and shared memory, in kB, from the kernel's counters in /proc/PID/status (read in
 * constant time, unlike PSS); 0 if it is gone. Its file-backed pages (the browser's own binary and libraries, which
 * every process maps) are left out: they do not grow with a batch.
 */
export function residentKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const counter = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return counter('RssAnon') + counter('RssShmem');
  } catch {
    return 0;
  }
}
