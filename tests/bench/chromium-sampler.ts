import { chromiumProcesses, pssKb } from '../chromium-processes';
import { cpuByThread, cpuUsed, mergeReading, type ThreadCpu } from './cpu';

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
