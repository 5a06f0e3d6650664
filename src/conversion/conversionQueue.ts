import { conversionErrorMessage, isAbort, type Converter, type Judge } from './bridge.ts';
import type { ConversionSettings, ImageFormat, LookSource } from '../../core/contract.ts';
import type { DevicePlace } from '../../core/deviceFiles.ts';
import { plannedEncoder } from '../../core/policy.ts';
import { formatInfo } from '../../core/formats.ts';
import { browserEncodes } from './canvasTypes.ts';
import { outputFileName } from '../lib/fileNames.ts';
import { afterNextFrame } from '../lib/frames.ts';
import { createId } from '../lib/ids.ts';
import { settingsKey } from '../features/settings/settings.ts';
import { TICK_MS, createJob, fileOutcomes, jobsReducer, summarise, type ConversionJob, type FileOutcome, type JobAction } from './jobs.ts';
import { jobFromRecord, type RestoredJob } from './batchRecord.ts';

/**
 * Jobs handed to the converter at a time. The pool runs at most three; the rest of a batch waits here, as pending
 * jobs, so a 200-file batch costs the UI thread one job's hand-over as another ends, not 200 (each reads its
 * file's header and crosses to the bridge) in the task that starts the run.
 */
export const HAND_OVER_WINDOW = 6;

/**
 * Outputs whose look waits for the end of their batch, at most: each holds its source's view (2.4 MB at most), so a
 * long batch keeps about 40 MB for them, and its later jobs are judged as they convert.
 */
export const LOOKS_KEPT_FOR_LATER = 16;

/** Looks judged at once after a batch: the pool runs them as it runs conversions (its width, its memory budget). */
const JUDGED_AT_ONCE = 2;

/** A completed job's output waiting to be judged against its source's view. */
interface PendingLook {
  output: Blob;
  format: ImageFormat;
  source: LookSource;
  pixels: number;
}

/**
 * What a job is expected to take before the session has measured its kind: input bytes per millisecond, by output
 * (the WASM encoders are the slow ones, and slowest a format only WASM encodes: AVIF). Rough on purpose: the first
 * jobs of a kind replace it.
 */
function defaultRate(settings: ConversionSettings): number {
  const output = formatInfo(settings.outputFormat);
  if (!output.canvasEncoder) return 150;
  return plannedEncoder(settings, output, browserEncodes) === 'browser' ? 3000 : 500;
}

/**
 * Whether a job came, went, or changed its state or settings between two lists: what the files' outcomes and the
 * status view follow. Compared job by job, with no string of every job's state built at each action (a 1,000-job
 * batch built one of 40 KB, three times a job).
 */
function outcomeStatesChanged(before: readonly ConversionJob[], after: readonly ConversionJob[]): boolean {
  if (before.length !== after.length) return true;
  return after.some((job, i) => {
    const was = before[i]!;
    return job !== was && (job.id !== was.id || job.status !== was.status || job.settingsKey !== was.settingsKey);
  });
}

/** Jobs of one kind (output format, compression, target size) take alike per input byte. */
const rateKey = (settings: ConversionSettings) => `${settings.outputFormat}:${settings.enableCompression}:${settings.enableTargetSize}`;

export interface RunSummary {
  succeeded: number;
  failed: number;
  /** The completed jobs' outputs, in bytes. */
  outputBytes: number;
}

/** Where outputs go on the device (deviceBatch.ts in the app, once it has opened the batch's storage). */
export interface OutputKeeping {
  placeFor: (jobId: string, extension: string) => DevicePlace;
  /** An output kept for a job that is gone (cancelled while it was being written). */
  discard: (place: DevicePlace) => void;
}

export interface QueueOptions {
  /** Does the work of one job: the worker bridge's converter in the app, a stand-in in unit tests. */
  convert: Converter;
  /** Hears once when every job of a run has settled (the spec's completion step). */
  onRunFinished: (summary: RunSummary) => void;
  /** Hears once a run when the device's storage is full: the rest of that run is kept in memory. */
  onStorageFull?: () => void;
  /**
   * Judges an output's look in a worker. With it, outputs are judged once their batch is done (a decode and a score
   * less before each result shows); without it, each as it converts.
   */
  judge?: Judge;
}

/** What the workers report (a job started, moved, ended or was judged) and the progress tick, as against what the visitor did. */
const WORKER_NEWS: ReadonlySet<JobAction['type']> = new Set(['started', 'progress', 'tick', 'completed', 'failed', 'judged']);

/**
 * How often the workers' reports reach the page's parts at most. A short job reports four or five times (started,
 * a stage or two, its end), each a render and a frame of the page's own: on a phone's CPU that work outran the
 * batch's. Four times a second a bar still moves, and a job's end shows within a quarter of a second.
 */
export const WORKER_NEWS_EVERY_MS = 250;

/**
 * The queue outside React: jobs held by the pure reducer, work handed to the converter. Components subscribe
 * to just what they show (useQueueValue), so a progress tick re-renders the queue list, not the page.
 */
export class ConversionQueue {
  private jobs: ConversionJob[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly controllers = new Map<string, AbortController>();
  /** Input bytes per millisecond each kind of job has run at this session (a moving average), for the bars' estimate. */
  private readonly rates = new Map<string, number>();
  /** Jobs not yet handed to the converter, in order (each converts with its own settings). */
  private waiting: ConversionJob[] = [];
  /**
   * Ids of the latest run: while it is open, what the completion step waits for; after, what its summary counts,
   * until the next run starts.
   */
  private latestRun = new Set<string>();
  private runOpen = false;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private notifyScheduled = false;
  /** When subscribers last heard of a change (performance.now()). */
  private notifiedAt = -Infinity;
  /** The wait before workers' news is told, while one runs (WORKER_NEWS_EVERY_MS). */
  private notifyDelay: ReturnType<typeof setTimeout> | null = null;
  /** Each file's outcome per settings, rebuilt only when a job is added, removed or changes state (not on progress). */
  private outcomes = new Map<File, Map<string, FileOutcome>>();
  /** The jobs as they were at the last such change: what the list and the action bar show, which progress does not move. */
  private settledView: readonly ConversionJob[] = [];

  private readonly convert: Converter;
  private readonly judge: Judge | null;
  /** Completed jobs' outputs whose look is judged once no run is open, in the order they completed. */
  private readonly pendingLooks = new Map<string, PendingLook>();
  private judging = 0;
  private readonly onRunFinished: (summary: RunSummary) => void;
  /** Where outputs go on the device; null (in memory) until the page has opened the device's storage, or without it. */
  private keeping: OutputKeeping | null = null;
  private readonly onStorageFull: () => void;
  /** Whether the device has room for this run's outputs: until its storage said it is full. */
  private deviceHasRoom = true;

  constructor({ convert, onRunFinished, onStorageFull, judge }: QueueOptions) {
    this.convert = convert;
    this.judge = judge ?? null;
    this.onRunFinished = onRunFinished;
    this.onStorageFull = onStorageFull ?? (() => {});
  }

  /** From now on outputs are kept on the device, where `keeping` says. */
  keepOnDeviceWith(keeping: OutputKeeping): void {
    this.keeping = keeping;
  }

  /** Whether the running batch's results go to the device (and so outlive the tab). */
  readonly keepsOnDevice = (): boolean => this.keeping !== null && this.deviceHasRoom;

  /** The device's storage is full (an output or a source did not fit): said once, and the rest of the run stays in memory. */
  storageFull(): void {
    if (!this.deviceHasRoom) return;
    this.deviceHasRoom = false;
    this.onStorageFull();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getJobs = (): readonly ConversionJob[] => this.jobs;

  /** The same array until a job is added, removed or changes status: progress alone does not change it. */
  readonly getJobsByStatus = (): readonly ConversionJob[] => this.settledView;

  private byId: { jobs: readonly ConversionJob[]; index: Map<string, ConversionJob> } | null = null;

  /** One job as it is now (its progress too), for the row that shows it. */
  getJob(id: string): ConversionJob | undefined {
    if (this.byId?.jobs !== this.jobs) this.byId = { jobs: this.jobs, index: new Map(this.jobs.map((job) => [job.id, job])) };
    return this.byId.index.get(id);
  }

  readonly isConverting = (): boolean => summarise(this.jobs).running > 0;

  /** Runs `callback` once no job is pending or running: now, or when the running batch ends. Returns a cancel. */
  whenIdle(callback: () => void): () => void {
    if (!this.isConverting()) {
      callback();
      return () => undefined;
    }
    const unsubscribe = this.subscribe(() => {
      if (this.isConverting()) return;
      unsubscribe();
      callback();
    });
    return unsubscribe;
  }

  /** The latest run's jobs still in the queue (a cancelled one leaves it): what the batch progress counts. */
  latestRunJobs(jobs: readonly ConversionJob[] = this.jobs): ConversionJob[] {
    return jobs.filter((job) => this.latestRun.has(job.id));
  }

  /** What became of each file, per settings key (settingsKey); the same object until a job changes state. */
  readonly getOutcomes = (): ReadonlyMap<File, ReadonlyMap<string, FileOutcome>> => this.outcomes;

  /** Converts each file with these settings; its output goes in the folder the file sat in (zip, "Save all to folder…"). */
  start(sources: readonly { file: File; folder: string }[], settings: ConversionSettings): void {
    const key = settingsKey(settings);
    this.enqueue(sources.map(({ file, folder }) => createJob(createId(), file, settings, key, folder)));
  }

  /**
   * Jobs a page before this one left on the device (deviceBatch.ts), as they were: completed ones with their
   * outputs, failed ones with their errors, and pending ones, which convert again in a run of their own.
   */
  restore(restored: readonly RestoredJob[]): ConversionJob[] {
    const jobs = restored.map(jobFromRecord);
    this.enqueue(jobs);
    return jobs;
  }

  private enqueue(jobs: readonly ConversionJob[]): void {
    if (jobs.length === 0) return;
    const pending = jobs.filter((job) => job.status === 'pending');
    if (pending.length > 0) this.joinRun(pending.map((job) => job.id));
    this.dispatch({ type: 'enqueue', jobs: [...jobs] });
    // Let the frame that shows the new queue render first: once the workers run, the UI thread shares the cores
    // with them. The jobs then start together: a progress tick no longer re-lays out the page, so nothing is gained
    // by staggering them.
    afterNextFrame(() => {
      this.waiting.push(...pending);
      this.handOver();
    });
  }

  cancel(id: string): void {
    this.controllers.get(id)?.abort();
    this.pendingLooks.delete(id);
    this.waiting = this.waiting.filter((job) => job.id !== id);
    this.latestRun.delete(id);
    this.dispatch({ type: 'remove', id });
  }

  retry(id: string, settings: ConversionSettings): void {
    const job = this.jobs.find((j) => j.id === id);
    if (job?.status !== 'error') return;
    this.joinRun([id]);
    this.dispatch({ type: 'retry', id, settings, settingsKey: settingsKey(settings) });
    this.waiting.push(this.jobs.find((j) => j.id === id)!);
    this.handOver();
  }

  /**
   * Completed jobs whose outputs the visitor has taken away: downloaded one by one, in a zip, or saved to a folder.
   * In a long batch on a small device they can be let go (clearDelivered) while the rest converts. Only jobs completed
   * when marked: a completed job never changes state again, only leaves the queue, so one still listed still counts.
   */
  private readonly delivered = new Set<string>();

  /** These jobs' outputs were taken away (those completed now). */
  markDelivered(ids: Iterable<string>): void {
    for (const id of ids) if (this.getJob(id)?.status === 'completed') this.delivered.add(id);
    this.scheduleNotify(false);
  }

  /** How many listed jobs have outputs taken away. */
  readonly deliveredCount = (): number => {
    let listed = 0;
    for (const id of this.delivered) if (this.getJob(id)) listed++;
    return listed;
  };

  /** The jobs whose outputs were taken away go, and what the device keeps of them (deviceBatch.ts follows the queue). */
  clearDelivered(): void {
    const ids = [...this.delivered];
    this.delivered.clear();
    for (const id of ids) this.pendingLooks.delete(id);
    this.dispatch({ type: 'forget', ids });
  }

  /** Completed and failed jobs go (and what the device keeps of them: deviceBatch.ts follows the queue). */
  clearFinished(): void {
    // Only completed jobs wait for a look, and they all go; so do all the delivered ones.
    this.pendingLooks.clear();
    this.delivered.clear();
    this.dispatch({ type: 'clear' });
  }

  /** Stops every running job and the progress timer (the page is going away). */
  dispose(): void {
    this.waiting = [];
    this.pendingLooks.clear();
    for (const controller of this.controllers.values()) controller.abort();
    this.controllers.clear();
    this.setTicking(false);
  }

  /** Hands waiting jobs to the converter while fewer than HAND_OVER_WINDOW are with it. */
  private handOver(): void {
    while (this.controllers.size < HAND_OVER_WINDOW && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      if (this.jobs.some((j) => j.id === job.id)) this.execute(job);
    }
  }

  private execute(job: ConversionJob): void {
    const { settings } = job;
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    const keepAt = this.deviceHasRoom ? (this.keeping?.placeFor(job.id, formatInfo(settings.outputFormat).extension) ?? null) : null;
    // Every job now converting may come back with a view to keep: together they stay within LOOKS_KEPT_FOR_LATER.
    const judgeLater = this.judge !== null && this.pendingLooks.size + this.controllers.size <= LOOKS_KEPT_FOR_LATER;
    this.convert(job.file, settings, {
      signal: controller.signal,
      keepAt,
      judgeLater,
      onStart: () => {
        const rate = this.rates.get(rateKey(settings)) ?? defaultRate(settings);
        this.dispatch({ type: 'started', id: job.id, at: performance.now(), expectedMs: Math.max(200, job.file.size / rate) });
      },
      onProgress: ({ percent, stage }) => this.dispatch({ type: 'progress', id: job.id, percent, stage, at: performance.now() }),
    })
      .then((result) => {
        this.learnRate(job.id, settings);
        if (result.kept === 'storage-full') this.storageFull();
        const keptAt = result.kept === 'device' ? keepAt : null;
        // Cancelled while it was being written: its kept file has no job to belong to.
        if (keptAt && !this.jobs.some((j) => j.id === job.id)) this.keeping?.discard(keptAt);
        const lookPending = result.lookSource !== null && this.jobs.some((j) => j.id === job.id);
        if (lookPending) this.pendingLooks.set(job.id, { output: result.blob, format: settings.outputFormat, source: result.lookSource!, pixels: result.width * result.height });
        this.dispatch({ type: 'completed', id: job.id, blob: result.blob, name: outputFileName(job.file.name, settings.outputFormat), encodes: result.encodes, route: result.route, keptOriginal: result.keptOriginal, grewBecause: result.grewBecause, look: result.look, lookPending, dimensions: { width: result.width, height: result.height }, keptAt, crc32: result.crc32 });
      })
      .catch((error: unknown) => {
        if (isAbort(error)) return;
        console.error(`Conversion of ${job.file.name} failed`, error);
        this.dispatch({ type: 'failed', id: job.id, message: conversionErrorMessage(error) });
      })
      .finally(() => {
        if (this.controllers.get(job.id) === controller) this.controllers.delete(job.id);
        this.handOver();
      });
  }

  /** A job done: how fast its kind ran, blended into what the next ones are expected to take. */
  private learnRate(id: string, settings: ConversionSettings): void {
    const job = this.jobs.find((j) => j.id === id);
    if (!job?.startedAt) return;
    const rate = job.file.size / Math.max(1, performance.now() - job.startedAt);
    const before = this.rates.get(rateKey(settings));
    this.rates.set(rateKey(settings), before === undefined ? rate : (before + rate) / 2);
  }

  private dispatch(action: JobAction): void {
    const next = jobsReducer(this.jobs, action);
    if (next === this.jobs) return;
    this.jobs = next;
    // Progress reports and ticks never add, remove or re-state a job: the check is skipped on that hot path.
    if (action.type === 'judged') {
      // A look judged after the batch changes what its card and the kept record show, not any file's outcome.
      this.settledView = next;
    } else if (action.type !== 'progress' && action.type !== 'tick' && outcomeStatesChanged(this.settledView, next)) {
      this.outcomes = fileOutcomes(next);
      this.settledView = next;
    }
    // The spec's simulated progress keeps a running job's bar moving between the worker's stage reports.
    this.setTicking(next.some((job) => job.status === 'processing'));
    this.finishRunIfSettled();
    this.scheduleNotify(WORKER_NEWS.has(action.type));
  }

  /**
   * Subscribers hear of changes at most once per frame: a burst of worker reports and a progress tick become
   * one render. They hear in a task of its own just after a frame, not in the frame's animation callbacks: React's
   * commit and the browser's style, layout and paint of it then are two tasks, not one twice as long (on a page 4×
   * slower, that sum was most of a batch's long tasks, and a tap waits for the whole task it lands behind). What the
   * workers report comes at most every WORKER_NEWS_EVERY_MS; what the visitor did, at the next frame.
   */
  private scheduleNotify(fromWorkers: boolean): void {
    // Already on its way, as soon as this change needs: the one notify tells of both.
    if (this.notifyScheduled && (fromWorkers || this.notifyDelay === null)) return;
    clearTimeout(this.notifyDelay ?? undefined);
    this.notifyDelay = null;
    this.notifyScheduled = true;
    const wait = fromWorkers ? this.notifiedAt + WORKER_NEWS_EVERY_MS - performance.now() : 0;
    if (wait <= 0) {
      afterNextFrame(this.notify);
      return;
    }
    this.notifyDelay = setTimeout(() => {
      this.notifyDelay = null;
      afterNextFrame(this.notify);
    }, wait);
  }

  private readonly notify = (): void => {
    this.notifyScheduled = false;
    this.notifiedAt = performance.now();
    for (const listener of this.listeners) listener();
  };

  private setTicking(on: boolean): void {
    if (on && !this.ticker) this.ticker = setInterval(() => this.dispatch({ type: 'tick', now: performance.now() }), TICK_MS);
    if (!on && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  /** Jobs join the open run, or start a new one (whose summary replaces the last). */
  private joinRun(ids: readonly string[]): void {
    if (!this.runOpen) {
      this.latestRun = new Set();
      // A new run tries the device's storage again: space may have been freed since.
      this.deviceHasRoom = true;
    }
    for (const id of ids) this.latestRun.add(id);
    this.runOpen = true;
  }

  private finishRunIfSettled(): void {
    if (!this.runOpen) return;
    const ofRun = this.latestRunJobs();
    if (ofRun.some((job) => job.status === 'pending' || job.status === 'processing')) return;
    this.runOpen = false;
    // Looks a run kept waiting are judged now, even when that run was cancelled whole and has nothing to report.
    this.judgePendingLooks();
    if (ofRun.length === 0) return;
    const completed = ofRun.filter((job) => job.status === 'completed');
    const outputBytes = completed.reduce((sum, job) => sum + (job.outputSize ?? 0), 0);
    this.onRunFinished({ succeeded: completed.length, failed: ofRun.length - completed.length, outputBytes });
  }

  /**
   * Judges the outputs waiting for their look while no run is open, JUDGED_AT_ONCE at a time; a run that starts
   * meanwhile goes first, and the rest wait for its end. A judgement that fails leaves its job without a look.
   */
  private judgePendingLooks(): void {
    const judge = this.judge;
    while (judge && this.judging < JUDGED_AT_ONCE && !this.runOpen) {
      const next = this.pendingLooks.entries().next();
      if (next.done) return;
      const [id, { output, format, source, pixels }] = next.value;
      this.pendingLooks.delete(id);
      this.judging++;
      judge({ output, format, source }, pixels)
        .then(
          (look) => this.dispatch({ type: 'judged', id, look }),
          (error: unknown) => {
            console.error('An output could not be judged', error);
            this.dispatch({ type: 'judged', id, look: null });
          },
        )
        .finally(() => {
          this.judging--;
          this.judgePendingLooks();
        });
    }
  }
}
