import { describe, expect, it } from 'vitest';
import { createJob, jobsReducer, summarise, type ConversionJob, type JobAction } from '../../src/features/queue/jobs';

const file = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const run = (jobs: ConversionJob[], ...actions: JobAction[]) => actions.reduce(jobsReducer, jobs);
const queued = () => run([], { type: 'enqueue', jobs: [createJob('a', file('a.png'), 'webp', 'k1'), createJob('b', file('b.png', 2000), 'webp', 'k1')] });

describe('the job state machine', () => {
  it('jobs start pending at 0% with the original size', () => {
    const [a] = queued();
    expect(a).toMatchObject({ status: 'pending', progress: 0, originalSize: 1000, outputFormat: 'webp', outputBlob: null, error: null });
  });

  it('pending → processing when a worker takes it', () => {
    expect(run(queued(), { type: 'started', id: 'a' }).map((j) => j.status)).toEqual(['processing', 'pending']);
  });

  it('the simulation adds 10 every tick to processing jobs, capped at 90', () => {
    let jobs = run(queued(), { type: 'started', id: 'a' }, { type: 'tick' });
    expect(jobs.map((j) => j.progress)).toEqual([10, 0]);
    for (let i = 0; i < 20; i++) jobs = jobsReducer(jobs, { type: 'tick' });
    expect(jobs[0]!.progress).toBe(90);
  });

  it('progress never goes backwards, and stays below 100 until completed', () => {
    const jobs = run(queued(), { type: 'started', id: 'a' }, { type: 'progress', id: 'a', percent: 45 }, { type: 'progress', id: 'a', percent: 30 });
    expect(jobs[0]!.progress).toBe(45);
    expect(run(jobs, { type: 'progress', id: 'a', percent: 100 })[0]!.progress).toBe(99);
    const ticked = run(jobs, { type: 'progress', id: 'a', percent: 95 }, { type: 'tick' });
    expect(ticked[0]!.progress).toBe(95);
  });

  it('completed: progress 100, output and its size stored', () => {
    const blob = new Blob([new Uint8Array(300)]);
    const [a] = run(queued(), { type: 'started', id: 'a' }, { type: 'completed', id: 'a', blob, name: 'a.webp' });
    expect(a).toMatchObject({ status: 'completed', progress: 100, outputBlob: blob, outputSize: 300, outputName: 'a.webp' });
  });

  it('error: progress 0 and the message, "Conversion failed" by default', () => {
    const jobs = run(queued(), { type: 'started', id: 'a' }, { type: 'tick' }, { type: 'failed', id: 'a', message: 'Failed to load image' }, { type: 'failed', id: 'b' });
    expect(jobs[0]).toMatchObject({ status: 'error', progress: 0, error: 'Failed to load image' });
    expect(jobs[1]).toMatchObject({ status: 'error', progress: 0, error: 'Conversion failed' });
  });

  it('retry puts an error job back to pending with the new format', () => {
    const jobs = run(queued(), { type: 'failed', id: 'a' }, { type: 'retry', id: 'a', outputFormat: 'avif', settingsKey: 'k2' });
    expect(jobs[0]).toMatchObject({ status: 'pending', progress: 0, error: null, outputFormat: 'avif', settingsKey: 'k2' });
    // Only error jobs can be retried.
    expect(run(queued(), { type: 'retry', id: 'b', outputFormat: 'avif', settingsKey: 'k2' })[1]).toMatchObject({ status: 'pending', outputFormat: 'webp' });
  });

  it('a removed (cancelled) job ignores late results', () => {
    const jobs = run(queued(), { type: 'remove', id: 'a' }, { type: 'completed', id: 'a', blob: new Blob(), name: 'a.webp' });
    expect(jobs.map((j) => j.id)).toEqual(['b']);
  });

  it('a settled job does not change on a late report', () => {
    const blob = new Blob([new Uint8Array(10)]);
    const jobs = run(queued(), { type: 'completed', id: 'a', blob, name: 'a.webp' }, { type: 'failed', id: 'a' }, { type: 'progress', id: 'a', percent: 5 });
    expect(jobs[0]).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('clear keeps only running jobs; summarise counts', () => {
    const jobs = run(queued(), { type: 'completed', id: 'a', blob: new Blob(), name: 'a.webp' });
    expect(summarise(jobs)).toEqual({ running: 1, completed: 1, failed: 0 });
    expect(run(jobs, { type: 'clear' }).map((j) => j.id)).toEqual(['b']);
  });
});
