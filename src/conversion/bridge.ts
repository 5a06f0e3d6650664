import type { ConversionProgress, ConversionSettings, ConvertResult, JobPlan, JudgeRequest, OutputLook, OutputSample, SourceHeader, ViewRequest, WarmUpPlan, ZipEntry } from '../../core/contract.ts';
import type { DevicePlace, Kept } from '../../core/deviceFiles.ts';
import { formatInfo } from '../../core/formats.ts';
import { decodesTakeTurns, deviceMemoryGb, pixelLimit } from '../../core/memory.ts';
import { CONVERSION_ERRORS, isExplainedError } from '../../core/messages.ts';
import { UPRIGHT } from '../../core/orientation.ts';
import { planJob } from '../../core/plan.ts';
import { judgesOutput } from '../../core/look.ts';
import { plannedEncoder } from '../../core/policy.ts';
import { whenIdle } from '../lib/frames.ts';
import { browserEncodes } from './canvasTypes.ts';
import type { ImageHeader } from './probe.ts';
import type { RunOptions } from './pool.ts';

/**
 * The UI thread's one way into workers/: every worker it uses (conversions, previews, zips) is started, warmed,
 * aborted and ended here, and worker failures come back as the spec's messages. Components never spawn a worker.
 */

/**
 * The worker pools, Comlink and the header parsers load with the first file: the idle page needs none of them
 * (they were a tenth of its JavaScript).
 */
const pools = () => import('./pools.ts');

/** Each file's header, read once: intake reads it to validate the file, and each conversion of it again for its cost. */
const probed = new WeakMap<Blob, Promise<ImageHeader | null>>();

/**
 * The header probe reads the head of a file (at most 1 MB, 64 KB as a rule), cheap enough for the UI thread at
 * intake; a file's later conversions reuse that reading (a job's hand-over parsed it again on the UI thread).
 */
export function probeImage(file: Blob): Promise<ImageHeader | null> {
  let header = probed.get(file);
  if (!header) {
    header = import('./probe.ts').then((probe) => probe.probeImage(file));
    probed.set(file, header);
    // A file that could not be read (moved, or access lost) is read afresh next time.
    header.catch(() => probed.delete(file));
  }
  return header;
}
export type { ImageHeader } from './probe.ts';

/** The most pixels one image may have on this device (memory.ts), for intake and for each conversion. */
export const devicePixelLimit = (): number => pixelLimit(deviceMemoryGb());

/** What a conversion request says of this device's memory (memory.ts). */
const deviceLimits = () => ({ pixelLimit: devicePixelLimit(), decodeAlone: decodesTakeTurns(deviceMemoryGb()) });

export interface ConvertOptions extends RunOptions {
  onProgress: (progress: ConversionProgress) => void;
  /** Where the worker keeps the output on the device (deviceBatch.ts); null: in memory. */
  keepAt: DevicePlace | null;
  /** Hand back the source's view for a judgement after the batch (ConvertRequest.judgeLater) instead of judging now. */
  judgeLater: boolean;
}

/** Converts one file with the given settings; what ConversionQueue is given to do its work. */
export type Converter = (file: Blob, settings: ConversionSettings, options: ConvertOptions) => Promise<ConvertResult>;

/**
 * A job's plan, from the header its file's intake read (cached: no second parse) and the settings; a file whose header
 * gives no size fails as the worker would fail it.
 */
export async function planFor(file: Blob, settings: ConversionSettings): Promise<JobPlan> {
  return planJob(await sourceHeader(file), settings, browserEncodes);
}

export const convertInWorker: Converter = async (file, settings, { onProgress, keepAt, judgeLater, ...options }) => {
  const [plan, { convertInPool }] = await Promise.all([planFor(file, settings), pools()]);
  return convertInPool({ file, settings, plan, ...deviceLimits(), keepAt, judgeLater }, onProgress, { ...options, cost: plan.cost });
};

/** Judges an output after its conversion (ConvertRequest.judgeLater); what ConversionQueue is given to do it. */
export type Judge = (request: JudgeRequest, outputPixels: number) => Promise<OutputLook>;

/** The output's decoded pixels and the two views: what a judgement holds, against the pool's budget. */
export const judgeInWorker: Judge = async (request, outputPixels) => {
  const { judgeInPool } = await pools();
  return judgeInPool(request, { cost: 4 * outputPixels + 2 * request.source.view.data.byteLength });
};

/**
 * What converting `file` with `settings` would output, measured on a part of it (OutputSample), in the conversion
 * pool: for the batch's estimate before Convert. It gives way (RunOptions.givesWay): a job that starts while it runs
 * is told it runs alone when it is the only one, so a one-file batch encodes AVIF or JPEG XL on every core. It is
 * let finish (a few hundred milliseconds): ending it would end its worker, warm, and the batch would start another.
 */
export async function sampleInWorker(file: Blob, settings: ConversionSettings): Promise<OutputSample> {
  const [plan, { convertPool }] = await Promise.all([planFor(file, settings), pools()]);
  return convertPool().run((remote) => remote.sample({ file, settings, plan, ...deviceLimits(), keepAt: null, alone: false, judgeLater: false }), { cost: plan.sampleCost, givesWay: true });
}

/** What a conversion with these settings will load: the optimising encoder unless the browser's encodes, the resizer when resizing. */
function warmUpPlan(settings: ConversionSettings): WarmUpPlan {
  const resizes = settings.resizeWidth !== null || settings.resizeHeight !== null || settings.aspectRatio !== 'original';
  const output = formatInfo(settings.outputFormat);
  return { format: settings.outputFormat, encoder: plannedEncoder(settings, output, browserEncodes) === 'wasm', resizer: resizes, judge: judgesOutput(settings, output) };
}

/**
 * Starts the conversion workers `jobs` jobs will use and compiles the codecs these settings need once the page is
 * idle, so Convert starts converting at once instead of spending its first second on start-up; a codec the settings
 * do not use is not loaded, nor a worker the jobs would not reach (each costs memory). Returns a function that
 * cancels the plan.
 */
export function warmUpWhenIdle(settings: ConversionSettings, jobs: number): () => void {
  const plan = warmUpPlan(settings);
  return whenIdle(() => void pools().then(({ convertPool }) => convertPool().warm((remote) => remote.warmUp(plan), jobs, JSON.stringify(plan))));
}

/** The header the page read of an image (probeImage), as the workers take it; rejects with the load error when it has none or no size. */
async function sourceHeader(file: Blob): Promise<SourceHeader> {
  const header = await probeImage(file).catch(() => null);
  if (!header?.size) throw new Error(CONVERSION_ERRORS.load);
  return { format: header.format, size: header.size, orientation: header.orientation ?? UPRIGHT };
}

/** A small WebP preview of an image, longest edge `maxEdge`; rejects when the browser cannot decode the file. */
export async function makeThumbnail(file: Blob, maxEdge: number): Promise<Blob> {
  const [source, { thumbnailPool }] = await Promise.all([sourceHeader(file), pools()]);
  return thumbnailPool().run((remote) => remote.thumbnail({ file, source, maxEdge }));
}

/**
 * A picture of an image for the compare view (ViewRequest: framed as an output frames its source, or as it is; all
 * of it or a region; fitted to `box` device pixels), drawn in the preview worker and transferred.
 */
export async function viewInWorker(file: Blob, { framing, region, box }: Omit<ViewRequest, 'file' | 'source'>): Promise<ImageBitmap> {
  const [source, { thumbnailPool }] = await Promise.all([sourceHeader(file), pools()]);
  return thumbnailPool().run((remote) => remote.view({ file, source, framing, region, box }));
}

/** One zip of the given files (stored, not deflated again), built off the main thread. */
export async function zipInWorker(entries: ZipEntry[]): Promise<Blob> {
  const { zipPool } = await pools();
  return zipPool().run((remote) => remote.zip(entries));
}

/** Copies a job's source onto the device, in a worker (deviceBatch.ts). */
export async function keepInWorker(file: Blob, place: DevicePlace): Promise<Kept> {
  const { keepPool } = await pools();
  return keepPool().run((remote) => remote.keep(file, place));
}

/**
 * The message a failure should show: the catalogue's or a size limit's as they are; anything unexpected (a crashed
 * worker too) reads "Conversion failed".
 */
export function conversionErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return isExplainedError(message) ? message : CONVERSION_ERRORS.generic;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
