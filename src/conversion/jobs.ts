import type { ConversionSettings, ConversionStage, ImageFormat, OutputLook, Route } from '../../core/contract.ts';
import type { DevicePlace } from '../../core/deviceFiles.ts';
import type { GrowthReason } from '../../core/growth.ts';
import { CONVERSION_ERRORS } from '../../core/messages.ts';

export type JobStatus = 'pending' | 'processing' | 'completed' | 'error';

export interface ConversionJob {
  id: string;
  /** The selected file this job converts. */
  file: File;
  /** The folder the file sat in, relative to a dropped or picked folder; '' for a loose file. Its output goes there in a zip or a saved folder. */
  folder: string;
  status: JobStatus;
  /** 0–100; never goes backwards while a job runs. */
  progress: number;
  outputFormat: ImageFormat;
  /** The settings the job converts with, and their key (settingsKey): a file is done for these settings once such a job completes. */
  settings: ConversionSettings;
  settingsKey: string;
  /** How many times a worker has started it (a job resumed after the page closed mid-job starts again). */
  attempts: number;
  originalSize: number;
  outputBlob: Blob | null;
  outputSize: number | null;
  outputName: string | null;
  /** The output's CRC-32 where the worker reckoned it (ConvertResult.crc32): the zip then need not read the output for it. */
  outputCrc32: number | null;
  /** Encoder runs behind the output (target-size attempts), for the benchmark and curious users. */
  encodes: number | null;
  /** The route the worker took (core/contract.ts Route), once completed in this page: what the route tests read. */
  route: Route | null;
  /** When a worker took it (performance.now()), and how long it is expected to take: what the bar's estimate follows. */
  startedAt: number | null;
  expectedMs: number | null;
  /** Where the estimate starts from: the start, or the worker's last report that was ahead of it, and when. */
  anchorValue: number;
  anchorAt: number | null;
  /** What the worker said it is doing, while it runs. */
  stage: ConversionStage | null;
  /** The output is the source itself, since converting made it larger (keepOriginalIfLarger): that size. */
  keptOriginal: { convertedBytes: number } | null;
  /** Why the output is larger than its source (core/growth.ts), once completed; null where it is not. */
  grewBecause: GrowthReason | null;
  /** How the output looks beside the source, once completed and where judged (core/look.ts). */
  look: OutputLook | null;
  /** Completed, and its look is still to be judged (after the batch: ConversionQueue). */
  lookPending: boolean;
  /** The output's pixel size, once completed. */
  outputDimensions: { width: number; height: number } | null;
  /** Where the output is kept on the device (its Blob is that file), or null when it is in memory. */
  keptAt: DevicePlace | null;
  error: string | null;
}

export type JobAction =
  | { type: 'enqueue'; jobs: ConversionJob[] }
  | { type: 'started'; id: string; at: number; expectedMs: number }
  | { type: 'progress'; id: string; percent: number; at: number; stage?: ConversionStage }
  | { type: 'tick'; now: number }
  | { type: 'completed'; id: string; blob: Blob; name: string; encodes?: number; route?: Route; keptOriginal?: { convertedBytes: number } | null; grewBecause?: GrowthReason | null; look?: OutputLook | null; lookPending?: boolean; dimensions?: { width: number; height: number }; keptAt?: DevicePlace | null; crc32?: number | null }
  /** A completed job's look, judged after its batch; null when judging it failed (it then shows none). */
  | { type: 'judged'; id: string; look: OutputLook | null }
  | { type: 'failed'; id: string; message?: string }
  | { type: 'retry'; id: string; settings: ConversionSettings; settingsKey: string }
  | { type: 'remove'; id: string }
  /** Completed jobs whose outputs were taken away (ConversionQueue.clearDelivered): those of `ids` still completed go. */
  | { type: 'forget'; ids: readonly string[] }
  | { type: 'clear' };

/**
 * How often the bar's estimate moves between the worker's own reports: once a second. Ten renders a second cost a
 * phone's UI thread (the page 4× slower) a frame of work every 100 ms while the workers hold the cores.
 */
export const TICK_MS = 1000;

/** The estimate never claims the job done: the last step is the worker's. */
export const ESTIMATE_CAP = 98;

/**
 * Where the bar stands `sinceMs` after its anchor (the start, or the worker's last report, at `anchorValue`), when
 * about `remainingMs` of the job were left then: it closes the distance to 98 at the pace the expected time asks
 * (ConversionQueue learns it per output during the session) and adds one point every 2 s on top, so the bar never
 * stands still for long, even when the estimate is short. The spec's simulation (+10 every 100 ms, to 90) reached
 * 90 within a second and then stood still through a 10–25 s encode.
 */
export function estimatedProgress(anchorValue: number, sinceMs: number, remainingMs: number): number {
  if (sinceMs <= 0) return anchorValue;
  const closed = ESTIMATE_CAP - Math.max(0, ESTIMATE_CAP - anchorValue) * Math.exp((-2 * sinceMs) / Math.max(1, remainingMs));
  return Math.min(ESTIMATE_CAP, Math.max(anchorValue, closed) + sinceMs / 2000);
}

export function createJob(id: string, file: File, settings: ConversionSettings, settingsKey: string, folder = ''): ConversionJob {
  return {
    id,
    file,
    folder,
    status: 'pending',
    progress: 0,
    outputFormat: settings.outputFormat,
    settings,
    settingsKey,
    attempts: 0,
    startedAt: null,
    expectedMs: null,
    anchorValue: 0,
    anchorAt: null,
    stage: null,
    keptOriginal: null,
    grewBecause: null,
    look: null,
    lookPending: false,
    outputDimensions: null,
    keptAt: null,
    originalSize: file.size,
    outputBlob: null,
    outputSize: null,
    outputName: null,
    outputCrc32: null,
    encodes: null,
    route: null,
    error: null,
  };
}

function update(jobs: ConversionJob[], id: string, change: (job: ConversionJob) => ConversionJob): ConversionJob[] {
  return jobs.map((job) => (job.id === id ? change(job) : job));
}

const isRunning = (job: ConversionJob) => job.status === 'pending' || job.status === 'processing';

export function jobsReducer(jobs: ConversionJob[], action: JobAction): ConversionJob[] {
  switch (action.type) {
    case 'enqueue':
      return [...jobs, ...action.jobs];
    case 'started':
      return update(jobs, action.id, (job) => (job.status === 'pending' ? { ...job, status: 'processing', attempts: job.attempts + 1, startedAt: action.at, expectedMs: action.expectedMs, anchorValue: 0, anchorAt: action.at } : job));
    case 'progress':
      return update(jobs, action.id, (job) =>
        job.status !== 'processing'
          ? job
          : action.percent > job.progress
            ? { ...job, progress: Math.min(99, Math.round(action.percent)), anchorValue: Math.min(99, action.percent), anchorAt: action.at, stage: action.stage ?? job.stage }
            : action.stage
              ? { ...job, stage: action.stage }
              : job,
      );
    case 'tick': {
      let changed = false;
      const next = jobs.map((job) => {
        if (job.status !== 'processing' || job.startedAt === null || job.expectedMs === null || job.anchorAt === null) return job;
        const remaining = Math.max(job.expectedMs - (job.anchorAt - job.startedAt), job.expectedMs / 4);
        const progress = Math.max(job.progress, Math.floor(estimatedProgress(job.anchorValue, action.now - job.anchorAt, remaining)));
        if (progress === job.progress) return job;
        changed = true;
        return { ...job, progress };
      });
      return changed ? next : jobs;
    }
    case 'completed':
      return update(jobs, action.id, (job) =>
        isRunning(job)
          ? {
              ...job,
              status: 'completed',
              progress: 100,
              outputBlob: action.blob,
              outputSize: action.blob.size,
              outputName: action.name,
              outputCrc32: action.crc32 ?? null,
              encodes: action.encodes ?? null,
              route: action.route ?? null,
              keptOriginal: action.keptOriginal ?? null,
              grewBecause: action.grewBecause ?? null,
              look: action.look ?? null,
              lookPending: action.lookPending ?? false,
              outputDimensions: action.dimensions ?? null,
              keptAt: action.keptAt ?? null,
              error: null,
            }
          : job,
      );
    case 'judged':
      return update(jobs, action.id, (job) => (job.status === 'completed' && job.lookPending ? { ...job, look: action.look, lookPending: false } : job));
    case 'failed':
      return update(jobs, action.id, (job) =>
        isRunning(job) ? { ...job, status: 'error', progress: 0, error: action.message || CONVERSION_ERRORS.generic } : job,
      );
    case 'retry':
      return update(jobs, action.id, (job) =>
        job.status === 'error'
          ? { ...job, status: 'pending', progress: 0, error: null, outputFormat: action.settings.outputFormat, settings: action.settings, settingsKey: action.settingsKey, attempts: 0, startedAt: null, expectedMs: null, anchorValue: 0, anchorAt: null, stage: null, outputBlob: null, outputSize: null, outputName: null, outputCrc32: null, encodes: null, route: null }
          : job,
      );
    case 'remove':
      return jobs.filter((job) => job.id !== action.id);
    case 'forget': {
      const ids = new Set(action.ids);
      return jobs.filter((job) => !(job.status === 'completed' && ids.has(job.id)));
    }
    case 'clear':
      return jobs.filter(isRunning);
  }
}

export function summarise(jobs: readonly ConversionJob[]) {
  return {
    running: jobs.filter(isRunning).length,
    completed: jobs.filter((job) => job.status === 'completed').length,
    failed: jobs.filter((job) => job.status === 'error').length,
  };
}

/** What became of a file with given settings: its most telling job's state, a completed one first. */
export type FileOutcome = 'completed' | 'running' | 'error';

const OUTCOME_RANK: Record<FileOutcome, number> = { completed: 3, running: 2, error: 1 };

/** Each file's outcome per settings key, from the jobs in the queue. */
export function fileOutcomes(jobs: readonly ConversionJob[]): Map<File, Map<string, FileOutcome>> {
  const outcomes = new Map<File, Map<string, FileOutcome>>();
  for (const job of jobs) {
    const outcome: FileOutcome = job.status === 'completed' ? 'completed' : job.status === 'error' ? 'error' : 'running';
    const byKey = outcomes.get(job.file) ?? new Map<string, FileOutcome>();
    const before = byKey.get(job.settingsKey);
    if (!before || OUTCOME_RANK[outcome] > OUTCOME_RANK[before]) byKey.set(job.settingsKey, outcome);
    outcomes.set(job.file, byKey);
  }
  return outcomes;
}

const STAGE_TEXT = { decoding: 'Decoding', transforming: 'Resizing', encoding: 'Encoding', metadata: 'Writing metadata' } as const;

/** The label of a running job: what the worker is doing ("Fitting to 200 KB: try 3 of 8"), or its status. */
export function stageLabel(stage: ConversionStage | null): string | null {
  if (!stage) return null;
  if (stage.name === 'fitting') return `Fitting to ${stage.targetKb} KB: try ${stage.attempt} of ${stage.attempts}`;
  if (stage.name === 'choosing') return `Choosing quality: try ${stage.attempt}`;
  return STAGE_TEXT[stage.name];
}

/**
 * About how long the rest of a run takes, in ms, or null when nothing is known yet. Once jobs have settled, from the
 * run's own pace; before the first, from what each running job is expected to take (its kind's learnt or default
 * rate) and, for jobs still waiting, the same per-byte pace, shared among the jobs running side by side.
 */
export function runTimeLeftMs(jobs: readonly ConversionJob[], runStartedAt: number, now: number): number | null {
  const running = jobs.filter(isRunning);
  if (running.length === 0) return null;
  const settled = jobs.length - running.length;
  if (settled > 0) return ((now - runStartedAt) / settled) * running.length;
  const started = running.filter((job) => job.startedAt !== null && job.expectedMs !== null);
  if (started.length === 0) return null;
  const msPerByte = started.reduce((sum, job) => sum + job.expectedMs! / Math.max(1, job.originalSize), 0) / started.length;
  const startedLeft = started.reduce((sum, job) => sum + Math.max(job.expectedMs! - (now - job.startedAt!), job.expectedMs! / 10), 0);
  const waitingLeft = running.filter((job) => job.startedAt === null).reduce((sum, job) => sum + job.originalSize * msPerByte, 0);
  return (startedLeft + waitingLeft) / started.length;
}
