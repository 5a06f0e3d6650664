import { chromiumProcesses, pssKb, residentKb } from '../chromium-processes.ts';
import { cpuByThread, cpuUsed, mergeReading, type ThreadCpu } from './cpu.ts';

const totalPssKb = (pids: number[]) => pids.reduce((sum, pid) => sum + pssKb(pid), 0);
const totalResidentKb = (pids: number[]) => pids.reduce((sum, pid) => sum + residentKb(pid), 0);

/**
 * Samples Chromium's processes every 200 ms, with one walk of /proc per sample: their peak memory, and the CPU seconds
 * each thread group used (see cpu.ts).
 *
 * The peak is their total PSS as sampling starts plus the most their resident memory grew since (the kernel's
 * anonymous and shared-memory counters, summed over the processes). PSS is read only at the start: the kernel walks a
 * process's page tables for it, 35–85 ms of kernel time a reading while an 800 MB renderer converts, and read every
 * 200 ms that took a fifth to a third of a core from the runs being measured on a 2-core machine (batches ~12% slower,
 * the page's thread waiting for a core more often). The counters' growth matched PSS's within 10% (the corpus's
 * photos: 241 against 219 MB; 12 × 12 MP: 159 against 162 MB).
 */
export class ChromiumSampler {
  private timer: ReturnType<typeof setInterval> | null = null;
  private startPssKb = 0;
  private startResidentKb = 0;
  private peakResidentKb = 0;
  private startedAt = 0;
  private peakAt = 0;
  private cpuBefore = new Map<string, ThreadCpu>();
  private cpuLatest = new Map<string, ThreadCpu>();

  /** Total PSS of Chromium's processes now, in MB: the idle page, before a batch. */
  static currentMb(): number {
    return Math.round(totalPssKb(chromiumProcesses()) / 1024);
  }

  start(): void {
    const pids = chromiumProcesses();
    this.startPssKb = totalPssKb(pids);
    this.startResidentKb = totalResidentKb(pids);
    this.peakResidentKb = this.startResidentKb;
    this.startedAt = performance.now();
    this.peakAt = this.startedAt;
    this.cpuBefore = cpuByThread(pids);
    this.cpuLatest = new Map(this.cpuBefore);
    this.timer = setInterval(() => this.sample(), 200);
  }

  private sample(): void {
    const pids = chromiumProcesses();
    const residentKb = totalResidentKb(pids);
    if (residentKb > this.peakResidentKb) {
      this.peakResidentKb = residentKb;
      this.peakAt = performance.now();
    }
    mergeReading(this.cpuLatest, cpuByThread(pids));
  }

  /**
   * Peak memory in MB, when it came (ms from start()), and CPU seconds per thread group since start(); a later call
   * returns the same figures.
   */
  stop(): { peakMemoryMb: number; peakAtMs: number; cpu: Record<string, number> } {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sample();
    }
    return { peakMemoryMb: Math.round((this.startPssKb + this.peakResidentKb - this.startResidentKb) / 1024), peakAtMs: Math.round(this.peakAt - this.startedAt), cpu: cpuUsed(this.cpuBefore, this.cpuLatest) };
  }
}
