import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { createJob, estimatedProgress, jobsReducer, runTimeLeftMs, stageLabel, summarise, type ConversionJob, type JobAction } from '../../src/conversion/jobs.ts';

/** A worker takes a job at time 0, expected to take 10 s. */
const START_A: JobAction = { type: 'started', id: 'a', at: 0, expectedMs: 10_000 };

const file = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const run = (jobs: ConversionJob[], ...actions: JobAction[]) => actions.reduce(jobsReducer, jobs);
const WEBP = { ...DEFAULT_SETTINGS, outputFormat: 'webp' as const };
const AVIF = { ...DEFAULT_SETTINGS, outputFormat: 'avif' as const };
const queued = () => run([], { type: 'enqueue', jobs: [createJob('a', file('a.png'), WEBP, 'k1'), createJob('b', file('b.png', 2000), WEBP, 'k1')] });

describe('the job state machine', () => {
  it('jobs start pending at 0% with the original size', () => {
    const [a] = queued();
    expect(a).toMatchObject({ status: 'pending', progress: 0, originalSize: 1000, outputFormat: 'webp', outputBlob: null, error: null });
  });

  it('pending → processing when a worker takes it, counting the attempt', () => {
    const jobs = run(queued(), START_A);
    expect(jobs.map((j) => j.status)).toEqual(['processing', 'pending']);
    expect(jobs.map((j) => j.attempts)).toEqual([1, 0]);
  });

  it('between reports the bar follows the expected time, and never stands still for 2 s until 98', () => {
    let jobs = run(queued(), START_A, { type: 'tick', now: 5_000 });
    expect(jobs.map((j) => j.progress)).toEqual([Math.floor(98 * (1 - Math.exp(-1)) + 2.5), 0]);
    jobs = run(jobs, { type: 'tick', now: 10_000 });
    expect(jobs[0]!.progress).toBe(Math.floor(98 * (1 - Math.exp(-2)) + 5));
    // Long past the expected 10 s, still moving a point every 2 s, then held at 98 for the worker to finish.
    let last = jobs[0]!.progress;
    for (let now = 12_000; last < 98; now += 2_000) {
      jobs = run(jobs, { type: 'tick', now });
      expect(jobs[0]!.progress).toBeGreaterThan(last);
      last = jobs[0]!.progress;
    }
    expect(run(jobs, { type: 'tick', now: 10_000_000 })[0]!.progress).toBe(98);
  });

  it('a stage report ahead of the estimate becomes where the estimate goes on from, so the bar does not wait for it', () => {
    let jobs = run(queued(), START_A, { type: 'progress', id: 'a', percent: 45, at: 1_000 });
    expect(jobs[0]!.progress).toBe(45);
    let last = 45;
    for (let now = 2_000; last < 98; now += 2_000) {
      jobs = run(jobs, { type: 'tick', now });
      expect(jobs[0]!.progress).toBeGreaterThan(last);
      last = jobs[0]!.progress;
    }
  });

  it('estimatedProgress starts at its anchor, rises every 2 s at the least, and never passes 98', () => {
    expect(estimatedProgress(30, 0, 1000)).toBe(30);
    for (let t = 0; t < 60_000; t += 2_000) expect(Math.floor(estimatedProgress(0, t + 2_000, 600_000))).toBeGreaterThan(Math.floor(estimatedProgress(0, t, 600_000)));
    expect(estimatedProgress(0, 1e9, 10)).toBe(98);
  });

  it('a tick that moves no bar keeps the same jobs (no re-render)', () => {
    const jobs = run(queued(), START_A, { type: 'tick', now: 5_000 });
    expect(jobsReducer(jobs, { type: 'tick', now: 5_000 })).toBe(jobs);
  });

  it('progress never goes backwards, and stays below 100 until completed', () => {
    const jobs = run(queued(), START_A, { type: 'progress', id: 'a', percent: 45, at: 1 }, { type: 'progress', id: 'a', percent: 30, at: 2 });
    expect(jobs[0]!.progress).toBe(45);
    expect(run(jobs, { type: 'progress', id: 'a', percent: 100, at: 3 })[0]!.progress).toBe(99);
    const ticked = run(jobs, { type: 'progress', id: 'a', percent: 95, at: 1_000 }, { type: 'tick', now: 1_000 });
    expect(ticked[0]!.progress).toBe(95);
  });

  it('completed: progress 100, output and its size stored', () => {
    const blob = new Blob([new Uint8Array(300)]);
    const [a] = run(queued(), START_A, { type: 'completed', id: 'a', blob, name: 'a.webp' });
    expect(a).toMatchObject({ status: 'completed', progress: 100, outputBlob: blob, outputSize: 300, outputName: 'a.webp' });
  });

  it('error: progress 0 and the message, "Conversion failed" by default', () => {
    const jobs = run(queued(), START_A, { type: 'tick', now: 1_000 }, { type: 'failed', id: 'a', message: 'Failed to load image' }, { type: 'failed', id: 'b' });
    expect(jobs[0]).toMatchObject({ status: 'error', progress: 0, error: 'Failed to load image' });
    expect(jobs[1]).toMatchObject({ status: 'error', progress: 0, error: 'Conversion failed' });
  });

  it('retry puts an error job back to pending with the new format', () => {
    const jobs = run(queued(), START_A, { type: 'failed', id: 'a' }, { type: 'retry', id: 'a', settings: AVIF, settingsKey: 'k2' });
    expect(jobs[0]).toMatchObject({ status: 'pending', progress: 0, error: null, outputFormat: 'avif', settings: AVIF, settingsKey: 'k2', attempts: 0 });
    // Only error jobs can be retried.
    expect(run(queued(), { type: 'retry', id: 'b', settings: AVIF, settingsKey: 'k2' })[1]).toMatchObject({ status: 'pending', outputFormat: 'webp' });
  });

  it('a removed (cancelled) job ignores late results', () => {
    const jobs = run(queued(), { type: 'remove', id: 'a' }, { type: 'completed', id: 'a', blob: new Blob(), name: 'a.webp' });
    expect(jobs.map((j) => j.id)).toEqual(['b']);
  });

  it('a settled job does not change on a late report', () => {
    const blob = new Blob([new Uint8Array(10)]);
    const jobs = run(queued(), { type: 'completed', id: 'a', blob, name: 'a.webp' }, { type: 'failed', id: 'a' }, { type: 'progress', id: 'a', percent: 5, at: 1 });
    expect(jobs[0]).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('clear keeps only running jobs; summarise counts', () => {
    const jobs = run(queued(), { type: 'completed', id: 'a', blob: new Blob(), name: 'a.webp' });
    expect(summarise(jobs)).toEqual({ running: 1, completed: 1, failed: 0 });
    expect(run(jobs, { type: 'clear' }).map((j) => j.id)).toEqual(['b']);
  });
});

describe('what a running job says it is doing', () => {
  it('keeps the stage of the latest report, even one that does not move the bar', () => {
    let jobs = run(queued(), START_A, { type: 'progress', id: 'a', percent: 45, at: 1, stage: { name: 'encoding' } });
    expect(stageLabel(jobs[0]!.stage)).toBe('Encoding');
    jobs = run(jobs, { type: 'progress', id: 'a', percent: 45, at: 2, stage: { name: 'fitting', attempt: 3, attempts: 8, targetKb: 200 } });
    expect(stageLabel(jobs[0]!.stage)).toBe('Fitting to 200 KB: try 3 of 8');
  });

  it('labels each stage, and none before the first report', () => {
    expect(stageLabel(null)).toBeNull();
    expect(stageLabel({ name: 'decoding' })).toBe('Decoding');
    expect(stageLabel({ name: 'transforming' })).toBe('Resizing');
    expect(stageLabel({ name: 'metadata' })).toBe('Writing metadata');
  });
});

describe("a run's time left", () => {
  it('knows nothing before a worker takes a job, and nothing once the run is over', () => {
    expect(runTimeLeftMs(queued(), 0, 500)).toBeNull();
    const over = run(queued(), START_A, { type: 'completed', id: 'a', blob: new Blob(['x']), name: 'a.webp' }, { type: 'failed', id: 'b' });
    expect(runTimeLeftMs(over, 0, 9000)).toBeNull();
  });

  it('before the first job settles, counts the running job down and prices the waiting one by its size', () => {
    // a: 1000 bytes expected to take 10 s, 4 s in; b: 2000 bytes waiting, so about 20 s at a's pace.
    expect(runTimeLeftMs(run(queued(), START_A), 0, 4000)).toBe(6000 + 20_000);
  });

  it('shares the work among the jobs running side by side', () => {
    const both = run(queued(), START_A, { type: 'started', id: 'b', at: 0, expectedMs: 20_000 });
    expect(runTimeLeftMs(both, 0, 4000)).toBe((6000 + 16_000) / 2);
  });

  it('never says a late job is done: a tenth of its expected time stays', () => {
    expect(runTimeLeftMs(run(queued(), START_A), 0, 60_000)).toBe(1000 + 20_000);
  });

  it("once jobs have settled, follows the run's own pace", () => {
    const half = run(queued(), START_A, { type: 'completed', id: 'a', blob: new Blob(['x']), name: 'a.webp' });
    expect(runTimeLeftMs(half, 0, 3000)).toBe(3000);
  });
});
