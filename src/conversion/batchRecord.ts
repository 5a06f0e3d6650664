import type { ConversionSettings, OutputLook } from '../../core/contract.ts';
import type { DevicePlace } from '../../core/deviceFiles.ts';
import type { GrowthReason } from '../../core/growth.ts';
import { createJob, type ConversionJob } from './jobs.ts';
import { settingsKey } from '../features/settings/settings.ts';

/**
 * The batch as a record that outlives the tab (kept by deviceBatch.ts): each job's settings, state and result, and
 * where its files are on the device. Pure: what is written, and what a later page makes of it.
 *
 * Each job is a value of its own in the record's store (under jobKey), and a write puts only the jobs that changed
 * since the last one: the whole batch as one value was written again at every job's change, a thousand jobs' worth
 * (30–50 ms on the page's thread, in the page's busiest moments) a thousand times over in a long batch.
 */

export const RECORD_VERSION = 2;
/** The whole batch as one value, as pages before per-job values wrote it: read once by the next page, then deleted. */
const WHOLE_BATCH_VERSION = 1;
export const WHOLE_BATCH_KEY = 'batch';

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
  /** Its CRC-32 where the worker reckoned it; absent in records written before, or where it was not. */
  crc32?: number;
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
  /** Its place in the batch: the jobs are read back in this order. Absent in a record of the whole batch as one value, which kept its jobs in order. */
  order?: number;
}

export interface BatchRecord {
  jobs: JobRecord[];
}

/** A job's value in the record's store, under jobKey(id). */
export interface StoredJob {
  version: typeof RECORD_VERSION;
  job: JobRecord;
}

export const jobKey = (jobId: string) => `job-${jobId}`;

/** Where a job's source bytes are kept, in the batch's folder. */
export const sourceFile = (jobId: string) => `source-${jobId}`;

/** Where a job's output is kept, in the batch's folder. */
export const outputFile = (jobId: string, extension: string) => `output-${jobId}.${extension}`;

/**
 * A job as the record keeps it, or null when a later page could do nothing with it: completed with its output only in
 * memory (the device was full), which the visitor was told.
 */
export function jobRecord(job: ConversionJob, updatedAt: number, order?: number): JobRecord | null {
  const source = { name: job.file.name, ...(job.folder ? { folder: job.folder } : {}), type: job.file.type, size: job.originalSize, lastModified: job.file.lastModified };
  const common = { id: job.id, source, settings: job.settings, attempts: job.attempts, updatedAt, ...(order === undefined ? {} : { order }) };
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
          ...(job.outputCrc32 === null ? {} : { crc32: job.outputCrc32 }),
        },
        error: null,
      };
    case 'error':
      return { ...common, state: 'failed', output: null, error: job.error };
    default:
      return { ...common, state: 'unfinished', output: null, error: null };
  }
}

/** A job as a write sees it: the queue's object for it (a new one whenever it changes), when its state last changed, and its record. */
export interface RecordSource {
  id: string;
  job: object;
  updatedAt: number;
  record: () => JobRecord | null;
}

/** One write of the record: the values to put and the keys to delete, and `done` once they are written. */
export interface RecordWrite {
  put: [key: string, value: StoredJob][];
  remove: string[];
  /** Whether jobs were left for the next write: more changed than one write takes (RecordChanges.next's `most`). */
  more: boolean;
  done: () => void;
}

/**
 * What each write of the record must put and delete: the jobs whose record changed since the last write (a job whose
 * queue object and state time are the ones written is not even looked at), and the keys of jobs gone, or no longer
 * recorded. Keys found in the store when the page opened it count as written, so the first write deletes what it
 * does not put again.
 */
export class RecordChanges {
  private readonly written = new Map<string, { job: object | null; updatedAt: number; signature: string }>();

  constructor(storedKeys: Iterable<string>) {
    for (const key of storedKeys) this.written.set(key, { job: null, updatedAt: Number.NaN, signature: '' });
  }

  /**
   * The next write: at most `most` jobs looked at anew (their records made and compared), the rest left for the next
   * write (`more`), still counted as present.
   */
  next(sources: Iterable<RecordSource>, most = Infinity): RecordWrite {
    const present = new Set<string>();
    const put: RecordWrite['put'] = [];
    const updates: [string, { job: object; updatedAt: number; signature: string }][] = [];
    let more = false;
    for (const source of sources) {
      const key = jobKey(source.id);
      const last = this.written.get(key);
      if (last && last.job === source.job && last.updatedAt === source.updatedAt) {
        present.add(key);
        continue;
      }
      if (updates.length >= most) {
        // Left for the next write: present still, so that it is not deleted meanwhile.
        if (last) present.add(key);
        more = true;
        continue;
      }
      const record = source.record();
      if (!record) continue;
      present.add(key);
      const signature = JSON.stringify(record);
      if (last?.signature !== signature) put.push([key, { version: RECORD_VERSION, job: record }]);
      updates.push([key, { job: source.job, updatedAt: source.updatedAt, signature }]);
    }
    const remove = [...this.written.keys()].filter((key) => !present.has(key));
    return {
      put,
      remove,
      more,
      done: () => {
        for (const [key, entry] of updates) this.written.set(key, entry);
        for (const key of remove) this.written.delete(key);
      },
    };
  }
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The record a page before left, from its store's entries: each job's value, and the whole batch as one value where
 * an earlier version wrote it. Values of another version, or damaged, are not read (a write deletes them). Null when
 * there is no job.
 */
export function readRecord(entries: readonly (readonly [IDBValidKey, unknown])[]): BatchRecord | null {
  const jobs: JobRecord[] = [];
  for (const [key, value] of entries) {
    if (!isObject(value)) continue;
    if (key === WHOLE_BATCH_KEY && value.version === WHOLE_BATCH_VERSION && Array.isArray(value.jobs)) jobs.push(...(value.jobs as JobRecord[]));
    else if (typeof key === 'string' && value.version === RECORD_VERSION && isObject(value.job) && key === jobKey(String(value.job.id))) jobs.push(value.job as unknown as JobRecord);
  }
  const unique = new Map(jobs.map((job) => [job.id, job]));
  // In the batch's order (a stable sort: a whole batch's jobs, which have none, stay in theirs, before any other).
  return unique.size === 0 ? null : { jobs: [...unique.values()].sort((a, b) => (a.order ?? -1) - (b.order ?? -1)) };
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
    const { name, size, width, height, encodes, keptOriginal, look, grewBecause, crc32 } = record.output;
    // A kept file of another size than the one recorded is not the bytes the CRC was reckoned on: the zip reads it.
    const outputCrc32 = crc32 !== undefined && output.size === size ? crc32 : null;
    return { ...job, status: 'completed', progress: 100, outputBlob: output, outputSize: output.size, outputName: name, outputCrc32, encodes, keptOriginal, grewBecause: grewBecause ?? null, look: look ?? null, outputDimensions: { width, height }, keptAt: outputPlace };
  }
  if (record.state === 'failed') return { ...job, status: 'error', error: record.error };
  return job;
}
