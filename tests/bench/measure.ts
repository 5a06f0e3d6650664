/**
 * Running contenders and summing up their runs: rounds (one run of each, then the next), medians of times, the worst
 * run's long tasks, memory and taps, and the outputs' bytes and SSIM against their sources.
 */
import sharp from 'sharp';
import { ssim } from 'ssim.js';
import { median } from '../../src/lib/median.ts';
import { sharpReadable } from '../independentDecoders.ts';
import type { LongTaskFigures, OneWorkerBusyFigures, TapFigures } from './figures.ts';
import type { InputSet } from './inputs.ts';
import type { RunResult, ScaleFigures } from './runners.ts';

/** One output's figures: null where the app did not judge it or Smart compression did not choose its quality. */
export interface ImageFigures {
  bytes: number;
  /** The encodes its job made (Smart compression: the preview's and the whole image's). */
  encodes: number | null;
  score: number | null;
  smartQuality: number | null;
}

export interface ContenderSummary {
  name: string;
  batchMs: number | null;
  zipMs: number | null;
  /** From Convert until the looks judged after the batch show (median); absent where not measured. */
  looksMs?: number | null;
  runsMs: number[];
  longTasks: LongTaskFigures | null;
  peakMemoryMb: number | null;
  /** The worst run's peak over its idle page. */
  overIdleMb: number | null;
  /** When that run's peak came, in ms from Convert; absent where not sampled. */
  peakAtMs?: number | null;
  totalBytes: number | null;
  ssim: number | null;
  /** SSIMULACRA2 of the outputs as the app judged them (first run): the worst and the median; null where none was judged. */
  look?: { worst: number; median: number } | null;
  /** CPU seconds per Chromium thread group, first run. */
  cpu?: Record<string, number>;
  /** Each input's output (first run), in the inputs' order: its bytes, its look and Smart compression's quality. */
  perImage?: ImageFigures[];
  /** The first run's intake, storage and zip (RunResult.scale). */
  scale?: ScaleFigures;
  /** The worst run's taps. */
  taps?: TapFigures;
  /** The taps with one worker busy, over all runs: their count, the slowest, and all their long tasks. */
  oneWorkerBusy?: OneWorkerBusyFigures & { runs: number };
  note?: string;
}

/**
 * Mean SSIM of outputs against their sources, on a 1024×768 centre crop at full resolution (ssim.js). A resized
 * output is held against its source resized by sharp (a centre crop to the output's ratio, then Lanczos3).
 */
async function meanSsim(sources: string[], written: Buffer[], sample = 4): Promise<number> {
  // A JPEG XL as djxl reads it: sharp has no JPEG XL decoder.
  const outputs = written.slice(0, sample).map(sharpReadable);
  const scores: number[] = [];
  for (let i = 0; i < Math.min(sample, outputs.length); i++) {
    const [source, output] = [await sharp(sources[i]!).metadata(), await sharp(outputs[i]!).metadata()];
    const reference = source.width === output.width && source.height === output.height ? sources[i]! : await sharp(sources[i]!).resize(output.width, output.height, { fit: 'cover' }).png().toBuffer();
    const meta = await sharp(reference).metadata();
    const width = Math.min(1024, meta.width!);
    const height = Math.min(768, meta.height!);
    const region = { left: Math.floor((meta.width! - width) / 2), top: Math.floor((meta.height! - height) / 2), width, height };
    const read = async (input: string | Buffer) => {
      const { data, info } = await sharp(input).extract(region).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
    };
    scores.push(ssim(await read(reference), await read(outputs[i]!)).mssim);
  }
  return Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 10000) / 10000;
}

/** One way of converting a set of inputs, run once per round. */
export interface Contender {
  name: string;
  inputs: InputSet;
  once: () => Promise<RunResult>;
}

/** A contender that does not run here, with the reason. */
export interface Skipped {
  name: string;
  note: string;
}

function lookFigures(looks: (number | null)[] | undefined): { worst: number; median: number } | null {
  const judged = (looks ?? []).filter((score): score is number => score !== null);
  if (judged.length === 0) return null;
  return { worst: Math.round(Math.min(...judged) * 10) / 10, median: Math.round(median(judged) * 10) / 10 };
}

/** The worst run's peak over its idle page, and when it came; null where memory was not sampled. */
function highestOverIdle(results: RunResult[]): { overIdleMb: number; peakAtMs: number | null } | null {
  if (results.some((r) => r.peakMemoryMb === null || r.idleMemoryMb === null)) return null;
  const overIdle = (r: RunResult) => r.peakMemoryMb! - r.idleMemoryMb!;
  const highest = results.reduce((worst, r) => (overIdle(r) > overIdle(worst) ? r : worst));
  return { overIdleMb: overIdle(highest), peakAtMs: highest.peakMemoryAtMs ?? null };
}

async function summarise(name: string, inputs: InputSet, results: RunResult[]): Promise<ContenderSummary> {
  const first = results[0]!;
  const worst = (pick: (r: RunResult) => number) => Math.max(...results.map(pick));
  const overIdle = highestOverIdle(results);
  return {
    name,
    batchMs: Math.round(median(results.map((r) => r.batchMs))),
    zipMs: first.zipMs === null ? null : Math.round(median(results.map((r) => r.zipMs!))),
    looksMs: first.looksMs == null ? null : Math.round(median(results.map((r) => r.looksMs!))),
    runsMs: results.map((r) => Math.round(r.batchMs)),
    longTasks: {
      count: worst((r) => r.longTasks.count),
      longestMs: worst((r) => r.longTasks.longestMs),
      totalBlockingMs: worst((r) => r.longTasks.totalBlockingMs),
      longFrames: worst((r) => r.longTasks.longFrames),
      at: results.flatMap((r) => r.longTasks.at ?? []),
    },
    peakMemoryMb: first.peakMemoryMb === null ? null : worst((r) => r.peakMemoryMb!),
    overIdleMb: overIdle?.overIdleMb ?? null,
    peakAtMs: overIdle?.peakAtMs ?? null,
    totalBytes: first.outputBytes,
    ssim: await meanSsim(inputs.references ?? inputs.paths, first.outputs),
    look: lookFigures(first.looks),
    cpu: first.cpu,
    scale: first.scale,
    perImage: first.outputs.map((output, i) => ({ bytes: output.length, encodes: first.encodes?.[i] ?? null, score: first.looks?.[i] ?? null, smartQuality: first.smartQualities?.[i] ?? null })),
    taps: first.taps
      ? {
          taps: Math.min(...results.map((r) => r.taps!.taps)),
          slowestMs: worst((r) => r.taps!.slowestMs),
          slowest: results.reduce((a, b) => (b.taps!.slowestMs > a.taps!.slowestMs ? b : a)).taps!.slowest,
          medianMs: worst((r) => r.taps!.medianMs ?? 0),
          inpMs: worst((r) => r.taps!.inpMs ?? 0),
          convertTapMs: worst((r) => r.taps!.convertTapMs ?? 0),
          idleSlowestMs: worst((r) => r.taps!.idleSlowestMs ?? 0),
        }
      : undefined,
    oneWorkerBusy: first.oneWorkerBusy
      ? {
          runs: results.length,
          taps: results.reduce((sum, r) => sum + r.oneWorkerBusy!.taps, 0),
          slowestMs: worst((r) => r.oneWorkerBusy!.slowestMs),
          longTasks: results.reduce((sum, r) => sum + r.oneWorkerBusy!.longTasks, 0),
          longestTaskMs: worst((r) => r.oneWorkerBusy!.longestTaskMs),
        }
      : undefined,
  };
}

/**
 * Runs the contenders in rounds (one run of each, then the next round), so a slow spell of a shared machine
 * falls on every contender alike instead of on whichever ran then; times are medians over the rounds.
 */
export async function measure(runs: number, entries: readonly (Contender | Skipped)[], match: RegExp | null = null): Promise<ContenderSummary[]> {
  const chosen = entries.map((entry) => ('once' in entry && match && !match.test(entry.name) ? { name: entry.name, note: 'not selected by --match' } : entry));
  const results = new Map<Contender, RunResult[]>();
  for (let round = 1; round <= runs; round++) {
    for (const entry of chosen) {
      if (!('once' in entry)) continue;
      process.stdout.write(`  ${entry.name}: run ${round}/${runs}… `);
      const result = await entry.once();
      process.stdout.write(`${(result.batchMs / 1000).toFixed(1)} s\n`);
      results.set(entry, [...(results.get(entry) ?? []), result]);
    }
  }
  const summaries: ContenderSummary[] = [];
  for (const entry of chosen) summaries.push('once' in entry ? await summarise(entry.name, entry.inputs, results.get(entry)!) : skipped(entry.name, entry.note));
  return summaries;
}

const skipped = (name: string, note: string): ContenderSummary => ({
  name,
  batchMs: null,
  zipMs: null,
  runsMs: [],
  longTasks: null,
  peakMemoryMb: null,
  overIdleMb: null,
  totalBytes: null,
  ssim: null,
  note,
});

