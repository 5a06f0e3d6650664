import { readFileSync } from 'node:fs';
import type { CDPSession } from '@playwright/test';
import { chromiumProcesses, pssKb } from '../chromium-processes.ts';

/**
 * Where a batch's memory is (`npm run bench:trace -- --memory`): the renderer's PSS read from /proc, each reading
 * paired with one of Chromium's memory dumps taken at the same moment, which say how much each allocator holds.
 * PSS is what the bench counts; the dump says whose it is. A WASM heap is in no allocator, so what PSS holds beyond
 * them is the workers' WASM heaps (and code). A dump's size is what an allocator has committed and PSS what is
 * resident, and a dump may come seconds after its PSS reading while a batch holds the cores, so that remainder is a
 * guide, below zero while the allocators hold memory not yet touched.
 */

/** The tracing category that carries Chromium's memory dumps; tracing must include it for a dump to be taken. */
export const MEMORY_CATEGORY = 'disabled-by-default-memory-infra';

/** One reading: each renderer's PSS in kB, and the memory dump requested at the same moment. */
export interface MemoryReading {
  atMs: number;
  /** The last mark() before it: what the page was doing. */
  phase: string;
  pssKb: Map<number, number>;
  dumpGuid: string | null;
}

const isRenderer = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
  } catch {
    return false;
  }
};

/** Readings as fast as Chromium dumps (a light dump takes a few hundred ms, seconds while a batch holds the cores). */
export class MemoryTrace {
  private readonly readings: MemoryReading[] = [];
  private running = true;
  private loop: Promise<void> = Promise.resolve();
  private readonly startedAt = Date.now();
  private phase = 'idle page';

  private constructor(private readonly cdp: CDPSession) {}

  /** Starts reading; the first reading, taken before this returns, is what the others are measured from. */
  static async start(cdp: CDPSession): Promise<MemoryTrace> {
    const trace = new MemoryTrace(cdp);
    await trace.readOnce();
    trace.loop = trace.readUntilStopped();
    return trace;
  }

  private async readOnce(): Promise<void> {
    const pss = new Map(chromiumProcesses().filter(isRenderer).map((pid) => [pid, pssKb(pid)]));
    const dump = await this.cdp.send('Tracing.requestMemoryDump', { levelOfDetail: 'light' } as never).catch(() => null);
    const { dumpGuid, success } = (dump ?? {}) as { dumpGuid?: string; success?: boolean };
    this.readings.push({ atMs: Date.now() - this.startedAt, phase: this.phase, pssKb: pss, dumpGuid: success && dumpGuid ? dumpGuid : null });
  }

  private async readUntilStopped(): Promise<void> {
    while (this.running) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await this.readOnce();
    }
  }

  /** What the page does from now on (the readings before it are the files being added and previewed). */
  mark(phase: string): void {
    this.phase = phase;
  }

  async stop(): Promise<MemoryReading[]> {
    this.running = false;
    await this.loop;
    return this.readings;
  }
}

interface DumpEvent {
  ph: string;
  pid: number;
  id?: string;
  args?: { dumps?: { allocators?: Record<string, { attrs?: { size?: { value: string } } }> } };
}

/** The allocators that own memory (the others, such as canvas or cc, are parts of these), with the names shown. */
const OWNERS = { partition_alloc: 'array buffers and DOM (PartitionAlloc)', malloc: 'malloc (decoded images, canvases, encoders)', v8: 'V8 heaps', blink_gc: 'Blink objects' } as const;

/** A block of at least this size in malloc is a decoded image or a copy of one (a 12 MP image's is 46 MB). */
const IMAGE_BLOCK_MB = 16;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

function sizes(dump: DumpEvent): Map<string, number> {
  const allocators = dump.args?.dumps?.allocators ?? {};
  return new Map(Object.entries(allocators).flatMap(([name, { attrs }]) => (attrs?.size ? [[name, parseInt(attrs.size.value, 16)] as const] : [])));
}

/** The renderer's memory at its peak and over the run, each allocator's as it is and PSS over the first reading (the idle page). */
export function memoryReport(traceEvents: readonly object[], readings: MemoryReading[]): string[] {
  const events = traceEvents as DumpEvent[];
  const renderers = new Set(readings.flatMap((r) => [...r.pssKb.keys()]));
  const dumps = new Map(events.filter((e) => e.ph === 'v' && renderers.has(e.pid) && e.id).map((e) => [`${e.pid}:${e.id}`, e]));
  const first = readings[0];
  if (!first) return ['No memory readings.'];
  // The page's renderer: the one whose memory grew most.
  const growth = (pid: number) => Math.max(...readings.map((r) => (r.pssKb.get(pid) ?? 0) - (first.pssKb.get(pid) ?? 0)));
  const pid = [...renderers].sort((a, b) => growth(b) - growth(a))[0]!;
  const dumpOf = (reading: MemoryReading) => (reading.dumpGuid ? dumps.get(`${pid}:${reading.dumpGuid}`) : undefined);
  const rows = readings.flatMap((reading) => {
    const dump = dumpOf(reading);
    if (!dump) return [];
    const now = sizes(dump);
    const pss = (reading.pssKb.get(pid) ?? 0) * 1024;
    const owners = Object.keys(OWNERS).map((name) => now.get(name) ?? 0);
    const imageBlocks = [...now].filter(([name, size]) => /^malloc\/allocated_objects\/.*directMap_\d+$/.test(name) && size >= IMAGE_BLOCK_MB * 2 ** 20);
    return [{ ...reading, pss, owners, rest: pss - owners.reduce((a, b) => a + b, 0), imageBlocks: imageBlocks.map(([, size]) => mb(size)) }];
  });
  const idle = rows[0];
  if (!idle || idle.atMs !== first.atMs) return ['No memory dump of the renderer on the idle page: was the memory-infra category traced?'];
  const batch = rows.filter((r) => r.phase === 'Convert');
  if (batch.length === 0) return ['No memory dump of the renderer during the batch.'];
  const peak = batch.reduce((a, b) => (b.pss > a.pss ? b : a));
  const overIdle = batch.map((r) => r.pss - idle.pss).sort((a, b) => a - b);
  const columns = [...Object.values(OWNERS), 'in no allocator (WASM heaps, code)'];
  const line = (r: (typeof rows)[number]) => [r.pss, ...r.owners, r.rest].map(mb);
  const [idleLine, peakLine] = [line(idle), line(peak)];
  return [
    `The page's renderer from Convert to the last job (PSS from /proc, split by Chromium's memory dumps taken with it; ${batch.length} readings):`,
    `  over the idle page: median +${mb(overIdle[Math.floor(overIdle.length / 2)]!)} MB, peak +${mb(peak.pss - idle.pss)} MB at ${(peak.atMs / 1000).toFixed(1)} s`,
    '',
    '  MB             idle page   peak',
    `  PSS            ${String(idleLine[0]).padStart(9)}   ${peakLine[0]}`,
    ...columns.map((name, i) => `  ${name}\n                 ${String(idleLine[i + 1]).padStart(9)}   ${peakLine[i + 1]}`),
    `  malloc blocks of ${IMAGE_BLOCK_MB} MB or more at the peak (decoded images and their copies): ${peak.imageBlocks.length === 0 ? 'none' : peak.imageBlocks.map((size) => `${size} MB`).join(', ')}`,
    '',
    `  Each reading (s, what the page did, MB: PSS, ${columns.map((c) => c.split(' (')[0]).join(', ')}):`,
    ...rows.map((r) => `    ${(r.atMs / 1000).toFixed(1).padStart(5)}  ${r.phase.padEnd(9)}  ${line(r).join('  ')}`),
  ];
}
