import type { ConversionSettings, OutputLook } from '../../core/contract.ts';
import type { DevicePlace } from '../../core/deviceFiles.ts';
import type { GrowthReason } from '../../core/growth.ts';
import { createJob, type ConversionJob } from './jobs.ts';
import { settingsKey } from '../features/settings/settings.ts';

/**
 * The batch as a record that outlives the tab (kept by deviceBatch.ts): each job's settings, state and result, and
 * where its files are on the device. Pure: what is written, and what a later page makes of it.
 */

export const RECORD_VERSION = 1;

/** Results wait on the device this long after their job last changed; older ones are deleted on load. */
export const KEEP_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * A job that was converting when the page went away this many times is failed rather than resumed again: an image
 * that takes the tab down (out of memory on a phone) would otherwise take it down on every load.
 */
export const MAX_ATTEMPTS = 3;

export const INTERRUPTED_MESSAGE = 'The page closed each time this image was converting. Retry to try once more.';

/** The visitor's file as it was picked: its bytes are kept beside the record (sourceFile) while its job is listed. */
export interface SourceRecord {
  name: string;
  /** The folder it sat in (ConversionJob.folder); absent in records written before folders, and for a loose file. */
  folder?: string;
  type: string;
  size: number;
  lastModified: number;
}

/** A completed job's result, its bytes kept on the device under `file`. */
export interface OutputRecord {
  file: string;
  name: string;
  type: string;
  size: number;
  width: number;
  height: number;
  encodes: number | null;
  keptOriginal: { convertedBytes: number } | null;
  /** Absent in records written before outputs were judged. */
  look?: OutputLook | null;
  /** Why it is larger than its source; absent in records written before the card said why. */
  grewBecause?: GrowthReason | null;
}

export interface JobRecord {
  id: string;
  source: SourceRecord;
  settings: ConversionSettings;
  state: 'unfinished' | 'completed' | 'failed';
  /** How many times a worker started it. */
  attempts: number;
  output: OutputRecord | null;
  error: string | null;
  /** When its state last changed (ms since the epoch). */
  updatedAt: number;
}

export interface BatchRecord {
  version: typeof RECORD_VERSION;
  jobs: JobRecord[];
}

/** Where a job's source bytes are kept, in the batch's folder. */
export const sourceFile = (jobId: string) => `source-${jobId}`;

/** Where a job's output is kept, in the batch's folder. */
export const outputFile = (jobId: string, extension: string) => `output-${jobId}.${extension}`;

/**
 * A job as the record keeps it, or null when a later page could do nothing with it: completed with its output only in
 * memory (the device was full), which the visitor was told.
 */
export function jobRecord(job: ConversionJob, updatedAt: number): JobRecord | null {
  const source = { name: job.file.name, ...(job.folder ? { folder: job.folder } : {}), type: job.file.type, size: job.originalSize, lastModified: job.file.lastModified };
  const common = { id: job.id, source, settings: job.settings, attempts: job.attempts, updatedAt };
  switch (job.status) {
    case 'completed':
      if (!job.keptAt || !job.outputBlob || !job.outputName) return null;
      return {
        ...common,
        state: 'completed',
        output: {
          file: job.keptAt.name,
          name: job.outputName,
          type: job.outputBlob.type,
          size: job.outputBlob.size,
          width: job.outputDimensions?.width ?? 0,
          height: job.outputDimensions?.height ?? 0,
          encodes: job.encodes,
          keptOriginal: job.keptOriginal,
          look: job.look,
          grewBecause: job.grewBecause,
        },
        error: null,
      };
    case 'error':
      return { ...common, state: 'failed', output: null, error: job.error };
    default:
      return { ...common, state: 'unfinished', output: null, error: null };
  }
}

export function batchRecord(jobs: JobRecord[]): BatchRecord {
  return { version: RECORD_VERSION, jobs };
}

/** What a page that finds a record does with each of its jobs. */
export interface RestorePlan {
  /** Listed with their results and Download. */
  completed: JobRecord[];
  /** Converted again, from their kept sources, with their own settings. */
  resume: JobRecord[];
  /** Listed as failed, with Retry (their sources are kept). */
  failed: JobRecord[];
  /** Not restorable: their files are not on the device (a source whose copy never finished, an output the browser cleared). */
  lost: JobRecord[];
  /** Older than KEEP_FOR_MS: deleted. */
  expired: JobRecord[];
  /** The settings of the latest job, for the settings panel; null when nothing is restored. */
  settings: ConversionSettings | null;
}

/** Reads a stored value as a record, or null when it is none (another version, or damaged). */
export function parseRecord(value: unknown): BatchRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Partial<BatchRecord>;
  if (record.version !== RECORD_VERSION || !Array.isArray(record.jobs)) return null;
  return { version: RECORD_VERSION, jobs: record.jobs };
}

/**
 * What to do with each recorded job, given the files in the batch's folder (`present`): a file, not the record, says
 * whether a source was kept, since a tab can go away between a copy's end and the record's next write.
 */
export function planRestore(record: BatchRecord, now: number, present: ReadonlySet<string>): RestorePlan {
  const plan: RestorePlan = { completed: [], resume: [], failed: [], lost: [], expired: [], settings: null };
  for (const job of record.jobs) {
    if (now - job.updatedAt > KEEP_FOR_MS) plan.expired.push(job);
    else if (job.state === 'completed') (job.output && present.has(job.output.file) ? plan.completed : plan.lost).push(job);
    else if (!present.has(sourceFile(job.id))) plan.lost.push(job);
    else if (job.state === 'failed') plan.failed.push(job);
    else if (job.attempts >= MAX_ATTEMPTS) plan.failed.push({ ...job, state: 'failed', error: INTERRUPTED_MESSAGE });
    else plan.resume.push(job);
  }
  const restored = [...plan.completed, ...plan.resume, ...plan.failed];
  plan.settings = restored.length === 0 ? null : restored.reduce((latest, job) => (job.updatedAt > latest.updatedAt ? job : latest)).settings;
  return plan;
}

/** The files restored jobs keep in the batch's folder (each its source; a completed one its output too): anything else there is a leftover. */
export function keptFiles(jobs: readonly JobRecord[]): Set<string> {
  return new Set(jobs.flatMap((job) => (job.state === 'completed' && job.output ? [sourceFile(job.id), job.output.file] : [sourceFile(job.id)])));
}

/**
 * Whether to ask the browser to keep the batch's storage from eviction (navigator.storage.persist()): only when
 * results will wait on the device a while, a batch long enough that the visitor may well leave it (or the browser
 * clear a background tab's storage under pressure) before downloading. Firefox asks the visitor, so not for a few files.
 */
export function persistHelps({ images, bytes }: { images: number; bytes: number }): boolean {
  return images >= 10 || bytes >= 50 * 1024 * 1024;
}

/**
 * A job a page before this one recorded on the device (jobRecord, above), with its files read back: its kept
 * source (for a completed job whose source never fitted on the device, an empty stand-in with its name), its kept
 * output and where that is.
 */
export interface RestoredJob {
  record: JobRecord;
  source: File;
  output: Blob | null;
  outputPlace: DevicePlace | null;
}

/** A restored job as the queue holds it. */
export function jobFromRecord({ record, source, output, outputPlace }: RestoredJob): ConversionJob {
  const job = { ...createJob(record.id, source, record.settings, settingsKey(record.settings), record.source.folder ?? ''), originalSize: record.source.size, attempts: record.attempts };
  if (record.state === 'completed' && record.output && output) {
    const { name, width, height, encodes, keptOriginal, look, grewBecause } = record.output;
    return { ...job, status: 'completed', progress: 100, outputBlob: output, outputSize: output.size, outputName: name, encodes, keptOriginal, grewBecause: grewBecause ?? null, look: look ?? null, outputDimensions: { width, height }, keptAt: outputPlace };
  }
  if (record.state === 'failed') return { ...job, status: 'error', error: record.error };
  return job;
}
