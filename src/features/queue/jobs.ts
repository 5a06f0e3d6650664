import { CONVERSION_ERRORS, type ImageFormat } from '../../../workers/contract';

export type JobStatus = 'pending' | 'processing' | 'completed' | 'error';

export interface ConversionJob {
  id: string;
  /** The selected file this job converts. */
  file: File;
  status: JobStatus;
  /** 0–100; never goes backwards while a job runs. */
  progress: number;
  outputFormat: ImageFormat;
  /** The settings the job converts with (settingsKey): a file is done for these settings once such a job completes. */
  settingsKey: string;
  originalSize: number;
  outputBlob: Blob | null;
  outputSize: number | null;
  outputName: string | null;
  /** Encoder runs behind the output (target-size attempts), for the benchmark and curious users. */
  encodes: number | null;
  error: string | null;
}

export type JobAction =
  | { type: 'enqueue'; jobs: ConversionJob[] }
  | { type: 'started'; id: string }
  | { type: 'progress'; id: string; percent: number }
  | { type: 'tick' }
  | { type: 'completed'; id: string; blob: Blob; name: string; encodes?: number }
  | { type: 'failed'; id: string; message?: string }
  | { type: 'retry'; id: string; outputFormat: ImageFormat; settingsKey: string }
  | { type: 'remove'; id: string }
  | { type: 'clear' };

/** The spec's simulated progress: +10 every 100 ms, capped at 90, between the worker's own reports. */
export const TICK_MS = 100;
const TICK_STEP = 10;
const TICK_CAP = 90;

export function createJob(id: string, file: File, outputFormat: ImageFormat, settingsKey: string): ConversionJob {
  return {
    id,
    file,
    status: 'pending',
    progress: 0,
    outputFormat,
    settingsKey,
    originalSize: file.size,
    outputBlob: null,
    outputSize: null,
    outputName: null,
    encodes: null,
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
      return update(jobs, action.id, (job) => (job.status === 'pending' ? { ...job, status: 'processing' } : job));
    case 'progress':
      return update(jobs, action.id, (job) =>
        job.status === 'processing' ? { ...job, progress: Math.max(job.progress, Math.min(99, Math.round(action.percent))) } : job,
      );
    case 'tick':
      return jobs.some((job) => job.status === 'processing' && job.progress < TICK_CAP)
        ? jobs.map((job) =>
            job.status === 'processing' && job.progress < TICK_CAP ? { ...job, progress: Math.min(TICK_CAP, job.progress + TICK_STEP) } : job,
          )
        : jobs;
    case 'completed':
      return update(jobs, action.id, (job) =>
        isRunning(job)
          ? { ...job, status: 'completed', progress: 100, outputBlob: action.blob, outputSize: action.blob.size, outputName: action.name, encodes: action.encodes ?? null, error: null }
          : job,
      );
    case 'failed':
      return update(jobs, action.id, (job) =>
        isRunning(job) ? { ...job, status: 'error', progress: 0, error: action.message || CONVERSION_ERRORS.generic } : job,
      );
    case 'retry':
      return update(jobs, action.id, (job) =>
        job.status === 'error'
          ? { ...job, status: 'pending', progress: 0, error: null, outputFormat: action.outputFormat, settingsKey: action.settingsKey, outputBlob: null, outputSize: null, outputName: null, encodes: null }
          : job,
      );
    case 'remove':
      return jobs.filter((job) => job.id !== action.id);
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
