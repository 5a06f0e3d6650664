import { entries, promisifyRequest, type UseStore } from 'idb-keyval';
import type { ConversionSettings } from '../../core/contract.ts';
import { formatInfo } from '../../core/formats.ts';
import { closingStore } from '../../core/idbStore.ts';
import { deleteDeviceFiles, listDeviceFiles, readDeviceFile, usableStore, type DevicePlace, type DeviceStore, type Kept } from '../../core/deviceFiles.ts';
import { inTurns } from '../lib/inTurns.ts';
import {
  RecordChanges,
  jobRecord,
  keptFiles,
  outputFile,
  persistHelps,
  planRestore,
  readRecord,
  sourceFile,
  type BatchRecord,
  type JobRecord,
  type RestoredJob,
} from './batchRecord.ts';
import type { ConversionQueue, OutputKeeping } from './conversionQueue.ts';
import type { ConversionJob } from './jobs.ts';

/**
 * The batch kept on the device, so that it outlives the tab (a reload, a discarded tab, a closed browser): each job's
 * source (copied by a worker as the job is queued: what resuming, Retry and Compare need), each output as it finishes
 * (written by the worker that made it), and the record of them all (batchRecord.ts) in IndexedDB. A page opens it
 * once it is idle, restores what a page before it left, then follows the queue: it writes the record as jobs change
 * state and deletes the files of jobs that are gone (cancelled, cleared).
 *
 * One page at a time keeps a batch: it holds a Web Lock for its life. A second tab opened beside it converts in
 * memory, as a browser without this storage does, and does not touch the first one's files.
 */

const LOCK = 'pixel-converter-batch';

/**
 * Sources handed to the copying worker at once. It copies one at a time; handed a thousand in one go (a folder's
 * batch), the page's thread spent 76 ms posting them in one task.
 */
const SOURCES_HANDED_AT_ONCE = 4;
/**
 * The most jobs one write of the record looks at anew and puts: at Convert a 1,000-photo batch's jobs all come at
 * once, and writing them in the Convert tap's task took 45 ms of it (IndexedDB's put and its clone, 32 ms; their
 * records, 13), 2026-12-01. A hundred a write, each in the task the write before ended in.
 */
const JOBS_WRITTEN_AT_ONCE = 100;

/**
 * A limit on the bytes of one file the storage layer writes, read from localStorage: how a test (or a host that
 * wants results kept in memory) makes the device "full" without filling a disk. Unset: the browser's own quota.
 * Read once, as the device's storage opens: a page's first localStorage read waits for the browser to hand over the
 * origin's whole store, and read at each file kept it was the first at Convert, in the busiest moment of a batch.
 */
export const LIMIT_KEY = 'pixel-converter:device-storage-limit';

function readLimit(): number | null {
  try {
    const value = localStorage.getItem(LIMIT_KEY);
    return value === null || value === '' || !Number.isFinite(Number(value)) ? null : Number(value);
  } catch {
    return null;
  }
}

/** Takes the lock and holds it until the page goes away; false when another page holds it. */
function holdLock(locks: LockManager): Promise<boolean> {
  return new Promise((resolve) => {
    locks
      .request(LOCK, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock ? new Promise<never>(() => {}) : undefined;
      })
      .catch(() => resolve(false));
  });
}

/** What a job's files on the device are, and when it last changed state. */
interface Tracked {
  job: ConversionJob;
  sourceKept: boolean;
  updatedAt: number;
  /** Its place in the queue's order, which the record keeps: each job's value is stored apart, and read back in key order. */
  order: number;
}

/** What a page found and put back in its queue. */
export interface Restored {
  completed: number;
  resumed: number;
  failed: number;
  /** Jobs whose sources never reached the device: the visitor adds those files again. */
  lost: number;
  /** The settings of the batch's latest job, for the settings panel. */
  settings: ConversionSettings | null;
}

const isFinished = (job: ConversionJob) => job.status === 'completed' || job.status === 'error';

/**
 * How long a batch's sources wait before they are copied onto the device, unless a job of it finishes first or the
 * page is hidden. As a batch starts, the page lays out its rows and the first decodes begin; a copy then (a worker
 * started, the file read and written) took cores those frames needed: on a phone's CPU (4×, two cores) runs with a
 * long task went from 8 of 24 to 2 of 24 with the copies a little later (docs/decisions/keep-the-batch.md).
 */
const KEEP_SOURCES_AFTER_MS = 1_000;

/** Copies a source onto the device in a worker: the bridge's keepInWorker (handed in, so this chunk does not split the bridge off the page's first script). */
export type SourceKeeper = (file: Blob, place: DevicePlace) => Promise<Kept>;

export class DeviceBatch implements OutputKeeping {
  private readonly tracked = new Map<string, Tracked>();
  private queue: ConversionQueue | null = null;
  private keepSource: SourceKeeper = async () => 'memory';
  /** The queue's jobs as last seen (its status view: the same array until a job comes, goes or changes state). */
  private seen: readonly ConversionJob[] = [];
  private saving: Promise<void> | null = null;
  private dirty = false;
  private askedToPersist = false;
  /** Sources of a starting batch, waiting to be copied (keepSourcesSoon). */
  private toKeep: Tracked[] = [];
  private keepTimer: ReturnType<typeof setTimeout> | null = null;
  private nextOrder = 0;

  private constructor(
    readonly store: DeviceStore,
    private readonly records: UseStore,
    private readonly found: BatchRecord | null,
    private readonly changes: RecordChanges,
    private readonly limitBytes: number | null,
  ) {}

  /**
   * The device's batch storage, or null: a browser with no place to keep files (or no Web Locks), or another tab
   * keeping its own batch.
   */
  static async open(): Promise<DeviceBatch | null> {
    const locks = globalThis.navigator?.locks;
    if (!locks) return null;
    const store = await usableStore();
    if (!store || !(await holdLock(locks))) return null;
    const records = closingStore('pixel-converter-batch', 'record');
    const stored = await entries(records).catch(() => []);
    return new DeviceBatch(store, records, readRecord(stored), new RecordChanges(stored.map(([key]) => String(key))), readLimit());
  }

  readonly placeFor = (jobId: string, extension: string): DevicePlace => this.placeToWrite(outputFile(jobId, extension));

  /** Where a file of the batch is written on the device, under the storage limit read as it opened. */
  private placeToWrite(name: string): DevicePlace {
    return { store: this.store, name, limitBytes: this.limitBytes };
  }

  readonly discard = (place: DevicePlace): void => void deleteDeviceFiles(this.store, [place.name]);

  /**
   * Puts back what the page before left (expired results and leftovers deleted), then keeps the queue's batch from
   * now on. Returns what was restored, or null when there was nothing.
   */
  async attach(queue: ConversionQueue, keepSource: SourceKeeper): Promise<Restored | null> {
    this.keepSource = keepSource;
    const present = await listDeviceFiles(this.store);
    const restored = this.found ? await this.restore(queue, present) : null;
    if (!this.found) await deleteDeviceFiles(this.store, present);
    this.queue = queue;
    queue.keepOnDeviceWith(this);
    queue.subscribe(this.follow);
    this.follow();
    return restored;
  }

  /** Puts the recorded jobs whose files are `present` back in the queue; deletes every other file: expired results, leftovers. */
  private async restore(queue: ConversionQueue, present: readonly string[]): Promise<Restored> {
    const plan = planRestore(this.found!, Date.now(), new Set(present));
    const kept = [...plan.completed, ...plan.failed, ...plan.resume];
    const keep = keptFiles(kept);
    await deleteDeviceFiles(this.store, present.filter((name) => !keep.has(name)));
    const found = (await Promise.all(kept.map((record) => this.readBack(record)))).filter((job) => job !== null);
    const lost = plan.lost.length + kept.length - found.length;
    const jobs = queue.restore(found);
    for (const job of jobs) {
      const record = kept.find((r) => r.id === job.id)!;
      this.tracked.set(job.id, { job, sourceKept: present.includes(sourceFile(job.id)), updatedAt: record.updatedAt, order: this.nextOrder++ });
    }
    const count = (status: ConversionJob['status']) => jobs.filter((job) => job.status === status).length;
    return { completed: count('completed'), resumed: count('pending'), failed: count('error'), lost, settings: jobs.length > 0 ? plan.settings : null };
  }

  /** A recorded job with its files read back from the device, or null when what it needs of them is gone. */
  private async readBack(record: JobRecord): Promise<RestoredJob | null> {
    const { name, type, lastModified } = record.source;
    const stored = await readDeviceFile(this.store, sourceFile(record.id), type);
    // A source shorter than recorded is a copy that never finished.
    const source = stored?.size === record.source.size ? new File([stored], name, { type, lastModified }) : null;
    if (record.state === 'completed' && record.output) {
      const output = await readDeviceFile(this.store, record.output.file, record.output.type);
      // Without its source (not kept: a full device) a completed job keeps its name, and its size in the record.
      return output && { record, source: source ?? new File([], name, { type, lastModified }), output, outputPlace: { store: this.store, name: record.output.file, limitBytes: null } };
    }
    return source && { record, source, output: null, outputPlace: null };
  }

  /** Follows the queue as its jobs come, go and change state: their files, and the record. */
  private readonly follow = (): void => {
    const queue = this.queue;
    if (!queue) return;
    const jobs = queue.getJobsByStatus();
    if (jobs === this.seen) return;
    this.seen = jobs;
    const now = Date.now();
    const present = new Set<string>();
    const queued: Tracked[] = [];
    let justFinished = false;
    for (const job of jobs) {
      present.add(job.id);
      const tracked = this.tracked.get(job.id);
      if (!tracked) {
        const fresh = { job, sourceKept: false, updatedAt: now, order: this.nextOrder++ };
        this.tracked.set(job.id, fresh);
        if (!isFinished(job)) queued.push(fresh);
        continue;
      }
      if (tracked.job.status !== job.status || tracked.job.settingsKey !== job.settingsKey) tracked.updatedAt = now;
      if (isFinished(job) && !isFinished(tracked.job)) justFinished = true;
      tracked.job = job;
    }
    for (const [id, tracked] of this.tracked) {
      if (present.has(id)) continue;
      this.tracked.delete(id);
      // Its output too if a worker was writing it as it was cancelled (the output's place follows from the job).
      const output = tracked.job.keptAt?.name ?? outputFile(id, formatInfo(tracked.job.outputFormat).extension);
      void deleteDeviceFiles(this.store, tracked.sourceKept ? [sourceFile(id), output] : [output]);
    }
    if (queued.length > 0) this.keepSourcesSoon(queue, queued);
    if (justFinished) this.keepWaitingSources();
    this.saveSoon();
  };

  /**
   * Newly queued jobs' sources, to be copied once the batch is under way: when a job finishes, the page is hidden (a
   * phone may discard it next), or KEEP_SOURCES_AFTER_MS have passed, whichever comes first.
   */
  private keepSourcesSoon(queue: ConversionQueue, queued: readonly Tracked[]): void {
    if (!queue.keepsOnDevice()) return;
    this.askToPersist(queued);
    this.toKeep.push(...queued);
    if (this.keepTimer !== null) return;
    this.keepTimer = setTimeout(this.keepWaitingSources, KEEP_SOURCES_AFTER_MS);
    globalThis.document?.addEventListener('visibilitychange', this.keepWaitingSources);
  }

  private readonly keepWaitingSources = (): void => {
    if (this.keepTimer === null) return;
    clearTimeout(this.keepTimer);
    this.keepTimer = null;
    globalThis.document?.removeEventListener('visibilitychange', this.keepWaitingSources);
    const waiting = this.toKeep;
    this.toKeep = [];
    // Only those still in the queue: a job removed meanwhile has nothing to keep.
    if (this.queue) this.keepSources(this.queue, waiting.filter((tracked) => this.tracked.get(tracked.job.id) === tracked));
  };

  /** Copies jobs' sources onto the device in a worker, a few handed to it at a time. */
  private keepSources(queue: ConversionQueue, queued: readonly Tracked[]): void {
    void inTurns(queued, SOURCES_HANDED_AT_ONCE, async (tracked) => {
      // Removed while waiting its turn.
      if (this.tracked.get(tracked.job.id) !== tracked) return;
      const place = this.placeToWrite(sourceFile(tracked.job.id));
      try {
        const kept = await this.keepSource(tracked.job.file, place);
        if (kept === 'storage-full') queue.storageFull();
        if (kept !== 'device') return;
        // Gone while it was being copied.
        if (this.tracked.get(tracked.job.id) !== tracked) return void deleteDeviceFiles(this.store, [place.name]);
        tracked.sourceKept = true;
      } catch (error) {
        console.error(`Keeping ${tracked.job.file.name} on the device failed`, error);
      }
    });
  }

  /** Asks the browser once to spare the batch's storage when it clears storage under pressure, when that helps. */
  private askToPersist(queued: readonly Tracked[]): void {
    if (this.askedToPersist) return;
    const bytes = queued.reduce((sum, { job }) => sum + job.file.size, 0);
    if (!persistHelps({ images: queued.length, bytes })) return;
    this.askedToPersist = true;
    void navigator.storage?.persist?.().catch(() => false);
  }

  /** The queue's jobs as the record's writes see them. */
  private *recordSources() {
    for (const job of this.seen) {
      const tracked = this.tracked.get(job.id);
      if (tracked) yield { id: job.id, job, updatedAt: tracked.updatedAt, record: () => jobRecord(job, tracked.updatedAt, tracked.order) };
    }
  }

  /** Writes the record soon: one write at a time, the latest state last. */
  private saveSoon(): void {
    this.dirty = true;
    if (this.saving) return;
    // Let go of in a later microtask, never inside flush: a flush with nothing to write ends without waiting, and would
    // let go before this line took hold of it, leaving it held for good (no write again in the page's life).
    this.saving = this.flush().finally(() => {
      this.saving = null;
      if (this.dirty) this.saveSoon();
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        const write = this.changes.next(this.recordSources(), JOBS_WRITTEN_AT_ONCE);
        // The rest after this write, in the task its transaction ends in: not all in the task that changed them.
        if (write.more) this.dirty = true;
        if (write.put.length > 0 || write.remove.length > 0) {
          await this.records('readwrite', (store) => {
            for (const [key, value] of write.put) store.put(value, key);
            for (const key of write.remove) store.delete(key);
            return promisifyRequest(store.transaction);
          });
        }
        write.done();
      }
    } catch (error) {
      console.error('The batch could not be recorded on the device', error);
    }
  }
}
