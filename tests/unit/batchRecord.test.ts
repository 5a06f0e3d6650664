import { describe, expect, it } from 'vitest';
import {
  INTERRUPTED_MESSAGE,
  KEEP_FOR_MS,
  MAX_ATTEMPTS,
  RecordChanges,
  WHOLE_BATCH_KEY,
  jobFromRecord,
  jobKey,
  jobRecord,
  keptFiles,
  outputFile,
  readRecord,
  persistHelps,
  planRestore,
  sourceFile,
  type JobRecord,
} from '../../src/conversion/batchRecord.ts';
import { createJob, jobsReducer, type ConversionJob, type JobAction } from '../../src/conversion/jobs.ts';
import { DEFAULT_SETTINGS, settingsKey } from '../../src/features/settings/settings.ts';

const AVIF = { ...DEFAULT_SETTINGS, outputFormat: 'avif' as const, quality: 60 };
const NOW = Date.UTC(2026, 10, 25, 12);
const photo = new File([new Uint8Array(1234)], 'holiday.jpg', { type: 'image/jpeg', lastModified: 1_700_000_000_000 });

const run = (...actions: JobAction[]) => actions.reduce(jobsReducer, [createJob('j1', photo, AVIF, settingsKey(AVIF))])[0]!;
const keptAt = { store: 'opfs' as const, name: outputFile('j1', 'avif'), limitBytes: null };
const completed = () => run({ type: 'started', id: 'j1', at: 0, expectedMs: 100 }, { type: 'completed', id: 'j1', blob: new Blob([new Uint8Array(99)], { type: 'image/avif' }), name: 'holiday.avif', encodes: 1, dimensions: { width: 40, height: 30 }, keptAt });

function record(overrides: Partial<JobRecord>): JobRecord {
  return {
    id: 'j1',
    source: { name: 'holiday.jpg', type: 'image/jpeg', size: 1234, lastModified: 1 },
    settings: AVIF,
    state: 'unfinished',
    attempts: 0,
    output: null,
    error: null,
    updatedAt: NOW,
    ...overrides,
  };
}

describe('the batch record: what is written', () => {
  it('an unfinished job: its source, its settings, how often it started', () => {
    const job = run({ type: 'started', id: 'j1', at: 0, expectedMs: 100 });
    expect(jobRecord(job, NOW)).toEqual(
      record({ source: { name: 'holiday.jpg', type: 'image/jpeg', size: 1234, lastModified: 1_700_000_000_000 }, attempts: 1 }),
    );
  });

  it('a completed job: its output, where it is kept, its name, size and dimensions', () => {
    expect(jobRecord(completed(), NOW)).toMatchObject({
      state: 'completed',
      output: { file: 'output-j1.avif', name: 'holiday.avif', type: 'image/avif', size: 99, width: 40, height: 30, encodes: 1, keptOriginal: null },
    });
  });

  it('a completed job whose output is only in memory (a full device) is not written: no later page could show it', () => {
    const inMemory: ConversionJob = { ...completed(), keptAt: null };
    expect(jobRecord(inMemory, NOW)).toBeNull();
  });

  it('a job from a dropped folder keeps the folder, and a later page puts it back; a loose file\'s record has none', () => {
    const inFolder = { ...completed(), folder: 'Holiday/Beach' };
    const written = jobRecord(inFolder, NOW)!;
    expect(written.source.folder).toBe('Holiday/Beach');
    expect(jobRecord(completed(), NOW)!.source).not.toHaveProperty('folder');
    const restored = jobFromRecord({ record: written, source: photo, output: inFolder.outputBlob, outputPlace: keptAt });
    expect(restored.folder).toBe('Holiday/Beach');
    expect(jobFromRecord({ record: jobRecord(completed(), NOW)!, source: photo, output: inFolder.outputBlob, outputPlace: keptAt }).folder).toBe('');
  });

  it('a failed job: its message', () => {
    const job = run({ type: 'failed', id: 'j1', message: 'Failed to load image' });
    expect(jobRecord(job, NOW)).toMatchObject({ state: 'failed', error: 'Failed to load image', output: null });
  });

  it('survives a trip through structured clone and JSON, and reads back; another version or a damaged value reads as none', () => {
    const job = jobRecord(completed(), NOW)!;
    const { put } = new RecordChanges([]).next([{ id: job.id, job: {}, updatedAt: NOW, record: () => job }]);
    expect(readRecord(structuredClone(put))).toEqual({ jobs: [job] });
    expect(readRecord(JSON.parse(JSON.stringify(put)))).toEqual({ jobs: [job] });
    expect(readRecord([[jobKey('j1'), { version: 3, job }]])).toBeNull();
    expect(readRecord([[jobKey('other'), put[0]![1]]])).toBeNull();
    expect(readRecord([[jobKey('j1'), { version: 2 }]])).toBeNull();
    expect(readRecord([[jobKey('j1'), undefined]])).toBeNull();
    expect(readRecord([[jobKey('j1'), 'batch']])).toBeNull();
    expect(readRecord([])).toBeNull();
  });

  it('reads the jobs back in the batch\'s order, not their keys\'', () => {
    const jobs = ['zz', 'aa', 'mm'].map((id, order) => record({ id, order }));
    const stored = jobs.map((job) => [jobKey(job.id), { version: 2, job }] as const).sort(([a], [b]) => a.localeCompare(b));
    expect(readRecord(stored)!.jobs.map((job) => job.id)).toEqual(['zz', 'aa', 'mm']);
    expect(jobRecord(completed(), NOW, 7)!.order).toBe(7);
  });

  it("reads the whole batch as one value, as an earlier version wrote it; a job's own value wins over it", () => {
    const unfinished = record({ id: 'a' });
    const done = record({ id: 'b', state: 'completed' });
    const newer = record({ id: 'a', attempts: 1 });
    expect(readRecord([[WHOLE_BATCH_KEY, { version: 1, jobs: [unfinished, done] }]])).toEqual({ jobs: [unfinished, done] });
    expect(readRecord([[WHOLE_BATCH_KEY, { version: 1, jobs: [unfinished, done] }], [jobKey('a'), { version: 2, job: newer }]])!.jobs).toEqual([newer, done]);
    expect(readRecord([[WHOLE_BATCH_KEY, { version: 1 }]])).toBeNull();
  });
});

describe('the batch record: what each write puts and deletes', () => {
  const source = (id: string, job: object, updatedAt = NOW, made: JobRecord | null = record({ id, updatedAt })) => ({ id, job, updatedAt, record: () => made });
  const keys = (write: { put: [string, unknown][] }) => write.put.map(([key]) => key);

  it('a job is put when it first comes and when its record changes, not when only its queue object does', () => {
    const changes = new RecordChanges([]);
    const [a, b] = [{}, {}];
    const first = changes.next([source('a', a), source('b', b)]);
    expect(keys(first)).toEqual([jobKey('a'), jobKey('b')]);
    expect(first.remove).toEqual([]);
    first.done();
    // The same objects: not even looked at.
    const looked: string[] = [];
    const same = changes.next([{ ...source('a', a), record: () => (looked.push('a'), record({ id: 'a' })) }, source('b', b)]);
    expect([keys(same), same.remove, looked]).toEqual([[], [], []]);
    same.done();
    // A new object with the same record (a progress report), and one whose state changed.
    const next = changes.next([source('a', {}), source('b', {}, NOW + 1, record({ id: 'b', state: 'failed', error: 'Conversion failed', updatedAt: NOW + 1 }))]);
    expect(keys(next)).toEqual([jobKey('b')]);
    expect(next.put[0]![1]).toEqual({ version: 2, job: record({ id: 'b', state: 'failed', error: 'Conversion failed', updatedAt: NOW + 1 }) });
  });

  it('a job gone, or no longer recorded (kept only in memory), is deleted; so is what a page before left and this one does not put again', () => {
    const changes = new RecordChanges([WHOLE_BATCH_KEY, jobKey('a'), jobKey('old')]);
    const first = changes.next([source('a', {}), source('b', {})]);
    expect(keys(first)).toEqual([jobKey('a'), jobKey('b')]);
    expect(first.remove).toEqual([WHOLE_BATCH_KEY, jobKey('old')]);
    first.done();
    const second = changes.next([source('b', {}, NOW, null)]);
    expect([keys(second), second.remove]).toEqual([[], [jobKey('a'), jobKey('b')]]);
    second.done();
    expect(changes.next([]).remove).toEqual([]);
  });

  it('a write takes at most `most` changed jobs; the rest, still present, come in the next', () => {
    const changes = new RecordChanges([jobKey('c')]);
    const sources = [source('a', {}), source('b', {}), source('c', {})];
    const first = changes.next(sources, 2);
    expect([keys(first), first.remove, first.more]).toEqual([[jobKey('a'), jobKey('b')], [], true]);
    first.done();
    const second = changes.next(sources, 2);
    expect([keys(second), second.remove, second.more]).toEqual([[jobKey('c')], [], false]);
    second.done();
    expect(changes.next(sources, 2)).toMatchObject({ put: [], remove: [], more: false });
  });

  it('a write that did not land is made again by the next one', () => {
    const changes = new RecordChanges([]);
    const a = {};
    expect(keys(changes.next([source('a', a)]))).toEqual([jobKey('a')]);
    expect(keys(changes.next([source('a', a)]))).toEqual([jobKey('a')]);
  });
});

describe('the batch record: what a later page makes of it', () => {
  const output = (file: string) => ({ file, name: 'a.avif', type: 'image/avif', size: 9, width: 1, height: 1, encodes: 1, keptOriginal: null });
  /** The files in the batch's folder: every job's source and the given outputs. */
  const folder = (jobs: JobRecord[], extra: string[] = []) => new Set([...jobs.map((job) => sourceFile(job.id)), ...extra]);

  it('completed jobs are listed, failed ones stay failed, unfinished ones resume', () => {
    const jobs = [record({ id: 'done', state: 'completed', output: output('output-done.avif') }), record({ id: 'bad', state: 'failed', error: 'Conversion failed' }), record({ id: 'next', attempts: 1 })];
    const plan = planRestore({ jobs }, NOW + 60_000, folder(jobs.slice(1), ['output-done.avif']));
    expect(plan.completed.map((j) => j.id)).toEqual(['done']);
    expect(plan.failed.map((j) => [j.id, j.error])).toEqual([['bad', 'Conversion failed']]);
    expect(plan.resume.map((j) => j.id)).toEqual(['next']);
    expect(plan.lost).toEqual([]);
    expect(plan.expired).toEqual([]);
  });

  it('what is older than a day is deleted, whatever its state', () => {
    const old = NOW - KEEP_FOR_MS - 1;
    const jobs = [record({ id: 'a', updatedAt: old }), record({ id: 'b', state: 'failed', updatedAt: old }), record({ id: 'c', updatedAt: NOW - KEEP_FOR_MS + 1000 })];
    const plan = planRestore({ jobs }, NOW, folder(jobs));
    expect(plan.expired.map((j) => j.id)).toEqual(['a', 'b']);
    expect(plan.resume.map((j) => j.id)).toEqual(['c']);
  });

  it('the folder, not the record, says whether a file was kept: a job whose source or output is not there is lost, and counted', () => {
    const jobs = [record({ id: 'a' }), record({ id: 'b', state: 'failed' }), record({ id: 'c', state: 'completed', output: output('output-c.avif') })];
    const plan = planRestore({ jobs }, NOW, new Set());
    expect(plan.lost.map((j) => j.id)).toEqual(['a', 'b', 'c']);
    expect(plan.settings).toBeNull();
    // A source copied just before the tab went away (the record not yet written since) is there: the job resumes.
    expect(planRestore({ jobs: [record({ id: 'a' })] }, NOW, new Set([sourceFile('a')])).resume.map((j) => j.id)).toEqual(['a']);
  });

  it(`a job the page closed under ${MAX_ATTEMPTS} times is failed with Retry, not started a ${MAX_ATTEMPTS + 1}th time`, () => {
    const jobs = [record({ id: 'a', attempts: MAX_ATTEMPTS - 1 }), record({ id: 'b', attempts: MAX_ATTEMPTS })];
    const plan = planRestore({ jobs }, NOW, folder(jobs));
    expect(plan.resume.map((j) => j.id)).toEqual(['a']);
    expect(plan.failed).toEqual([expect.objectContaining({ id: 'b', state: 'failed', error: INTERRUPTED_MESSAGE })]);
  });

  it('the settings panel gets the settings of the latest job restored', () => {
    const webp = { ...DEFAULT_SETTINGS, outputFormat: 'webp' as const };
    const jobs = [record({ id: 'a', updatedAt: NOW - 10 }), record({ id: 'b', settings: webp, updatedAt: NOW - 5 })];
    expect(planRestore({ jobs }, NOW, folder(jobs)).settings).toBe(webp);
  });

  it('the files restored jobs keep: each its source (what Retry and Compare need), a completed one its output too; anything else in the folder is a leftover', () => {
    const jobs = [record({ id: 'a' }), record({ id: 'b', state: 'failed' }), record({ id: 'c', state: 'completed', output: output('output-c.png') })];
    expect(keptFiles(jobs)).toEqual(new Set([sourceFile('a'), sourceFile('b'), sourceFile('c'), 'output-c.png']));
  });

  it('a recorded job becomes a queue job again: a completed one with its output, dimensions and original size', () => {
    const written = jobRecord(completed(), NOW)!;
    const output = new Blob([new Uint8Array(99)], { type: 'image/avif' });
    const job = jobFromRecord({ record: written, source: new File([], 'holiday.jpg'), output, outputPlace: keptAt });
    expect(job).toMatchObject({ id: 'j1', status: 'completed', progress: 100, outputName: 'holiday.avif', outputSize: 99, originalSize: 1234, outputDimensions: { width: 40, height: 30 }, keptAt, settingsKey: settingsKey(AVIF), outputFormat: 'avif' });
    expect(job.outputBlob).toBe(output);
  });

  it('why an output grew is kept with it, so a later page says the same; a record written before says nothing', () => {
    const grewBecause = { kind: 'denser-source', source: 'heic', output: 'jpeg' } as const;
    const grown = run({ type: 'started', id: 'j1', at: 0, expectedMs: 100 }, { type: 'completed', id: 'j1', blob: new Blob([new Uint8Array(99)], { type: 'image/avif' }), name: 'holiday.avif', grewBecause, dimensions: { width: 40, height: 30 }, keptAt });
    const written = jobRecord(grown, NOW)!;
    const restore = (record: JobRecord) => jobFromRecord({ record, source: new File([], 'holiday.jpg'), output: new Blob([new Uint8Array(99)]), outputPlace: keptAt });
    expect(restore(JSON.parse(JSON.stringify(written)) as JobRecord).grewBecause).toEqual(grewBecause);
    const { grewBecause: _, ...before } = written.output!;
    expect(restore({ ...written, output: before }).grewBecause).toBeNull();
  });

  it("the output's CRC-32 is kept with it, so a later page's zip need not read it; a kept file of another size, or a record written before, has none", () => {
    const reckoned = run({ type: 'started', id: 'j1', at: 0, expectedMs: 100 }, { type: 'completed', id: 'j1', blob: new Blob([new Uint8Array(99)], { type: 'image/avif' }), name: 'holiday.avif', dimensions: { width: 40, height: 30 }, keptAt, crc32: 0x1234abcd });
    expect(reckoned.outputCrc32).toBe(0x1234abcd);
    const written = jobRecord(reckoned, NOW)!;
    const restore = (record: JobRecord, bytes = 99) => jobFromRecord({ record, source: new File([], 'holiday.jpg'), output: new Blob([new Uint8Array(bytes)]), outputPlace: keptAt });
    expect(restore(JSON.parse(JSON.stringify(written)) as JobRecord).outputCrc32).toBe(0x1234abcd);
    expect(restore(written, 98).outputCrc32).toBeNull();
    const { crc32: _, ...before } = written.output!;
    expect(restore({ ...written, output: before }).outputCrc32).toBeNull();
    expect(jobRecord(completed(), NOW)!.output).not.toHaveProperty('crc32');
  });

  it('a recorded unfinished job becomes pending with its attempts; a failed one an error with its message', () => {
    const source = new File([new Uint8Array(1234)], 'holiday.jpg');
    expect(jobFromRecord({ record: record({ attempts: 2 }), source, output: null, outputPlace: null })).toMatchObject({ status: 'pending', attempts: 2, settings: AVIF, file: source });
    expect(jobFromRecord({ record: record({ state: 'failed', error: 'Compression failed' }), source, output: null, outputPlace: null })).toMatchObject({ status: 'error', error: 'Compression failed' });
  });
});

describe('asking the browser to keep the storage (navigator.storage.persist)', () => {
  it('only for a batch the visitor may well leave before downloading: ten images, or 50 MB', () => {
    expect(persistHelps({ images: 3, bytes: 12 * 1024 * 1024 })).toBe(false);
    expect(persistHelps({ images: 10, bytes: 1024 })).toBe(true);
    expect(persistHelps({ images: 4, bytes: 60 * 1024 * 1024 })).toBe(true);
  });
});
