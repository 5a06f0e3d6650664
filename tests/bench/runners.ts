/**
 * How each kind of contender is run once: the app through its real page, a baseline page (the seed design,
 * browser-image-compression), or a native encoder. Each returns one RunResult.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { unzipSync } from 'fflate';
import { instrumentApp, readRecord, type AppRecord } from './app-instrument.ts';
import { APP_URL, allJobsSettled, centre, convertButton, convertOnPhone, openIdleApp, openPage, prepareBatch, tapIdlePage, tapUntil, throttle, type AppSettings, type PhoneOptions, type PhoneTapWindows } from './app-page.ts';
import { answerWithoutIsolationHeaders } from '../unisolatedHost.ts';
import { jobFigures } from '../e2e/helpers.ts';
import { ChromiumSampler } from './chromium-sampler.ts';
import { longTaskFigures, oneWorkerBusyFigures, tapFigures, type LongTaskFigures, type OneWorkerBusyFigures, type PageRecord, type TapFigures } from './figures.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BASELINE_PORT = 4181;

export interface RunResult {
  taps?: TapFigures;
  /** The app's taps on its idle page with one worker busy (convertOnPhone): what this machine allows a tap. */
  oneWorkerBusy?: OneWorkerBusyFigures;
  batchMs: number;
  zipMs: number | null;
  /** From Convert until every output the app judges after the batch shows its look (the app's own page only). */
  looksMs?: number | null;
  longTasks: LongTaskFigures;
  peakMemoryMb: number | null;
  /** When the peak came, in ms from the batch's start (Convert); absent where memory is not sampled. */
  peakMemoryAtMs?: number;
  /** Chromium's memory with the page open and idle, before any file: peak − idle is what the batch cost. */
  idleMemoryMb: number | null;
  /** The outputs in the inputs' order: all of them, or the first few where the zip was too large to read whole (readZip). */
  outputs: Buffer[];
  /** Every output's bytes together. */
  outputBytes: number;
  encodes?: number[];
  /** Each job's SSIMULACRA2 as its card shows it (core/look.ts), in the inputs' order; null where not judged. */
  looks?: (number | null)[];
  /** Each job's quality as Smart compression chose it, in the inputs' order; null where it did not choose. */
  smartQualities?: (number | null)[];
  /** CPU seconds per Chromium thread group over the batch (see ChromiumSampler). */
  cpu?: Record<string, number>;
  /** The intake and what the batch left behind (the app's own page only). */
  scale?: ScaleFigures;
}

/** What a batch costs beyond its time: how its files came in, and what it leaves on the device and in the zip. */
export interface ScaleFigures {
  /** From the files handed to the page until every one is listed (the folder walked, each file's header read). */
  intakeMs: number;
  /** From the files handed to the page until every card in the page has its preview. */
  previewsMs: number;
  /** The page's long tasks until every file was listed. */
  intakeLongTasks: LongTaskFigures;
  /** The previews the page made by then (data-previews): only the cards on screen or about to be should have one. */
  previews: number;
  /** The page's longest task from the files handed over until the zip's download began. */
  longestTaskMs: number;
  /** The origin's storage in use once the zip is downloaded (navigator.storage.estimate()), MB. */
  storageMb: number | null;
  zipBytes: number;
  zipEntries: number;
}

/** Serves the baseline pages and the locally installed libraries they use (browser-image-compression's libURL: no CDN). */
export function startBaselineServer(): http.Server {
  const files: Record<string, [string, string]> = {
    '/seed.html': [join(import.meta.dirname, 'baselines', 'seed.html'), 'text/html'],
    '/bic.html': [join(import.meta.dirname, 'baselines', 'bic.html'), 'text/html'],
    '/instrument.js': [join(import.meta.dirname, 'baselines', 'instrument.js'), 'text/javascript'],
    '/lib/browser-image-compression.js': [join(ROOT, 'node_modules', 'browser-image-compression', 'dist', 'browser-image-compression.js'), 'text/javascript'],
    '/heic.html': [join(import.meta.dirname, 'baselines', 'heic.html'), 'text/html'],
    '/lib/heic-to.js': [join(ROOT, 'node_modules', 'heic-to', 'dist', 'iife', 'heic-to.js'), 'text/javascript'],
    '/lib/heic2any.js': [join(ROOT, 'node_modules', 'heic2any', 'dist', 'heic2any.js'), 'text/javascript'],
  };
  const server = http.createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://x').pathname];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[1] }).end(readFileSync(file[0]));
  });
  server.listen(BASELINE_PORT);
  return server;
}

const totalLength = (buffers: readonly Uint8Array[]) => buffers.reduce((sum, buffer) => sum + buffer.length, 0);

/** A zip past this is not read whole: Node reads no file over 2 GiB at once, and a thousand photos' zip passes it. */
const WHOLE_ZIP_MAX_BYTES = 1e9;
/** The outputs read back from a larger zip, for the SSIM. */
const OUTPUTS_READ_FROM_A_LARGE_ZIP = 4;

interface ZipRead {
  names: string[];
  read: (name: string) => Buffer;
  /** Whether every entry was read (read() answers from memory) or the zip was too large (read() asks unzip). */
  whole: boolean;
  bytes: number;
  uncompressedBytes: number;
}

/**
 * A downloaded zip's entries. Up to WHOLE_ZIP_MAX_BYTES read at once; a larger one listed by Info-ZIP's zipinfo, its
 * entries read one at a time with unzip -p, after `unzip -t` has tested every entry (a Zip64 included).
 */
function readZip(path: string): ZipRead {
  const bytes = statSync(path).size;
  if (bytes <= WHOLE_ZIP_MAX_BYTES) {
    const entries = unzipSync(new Uint8Array(readFileSync(path)));
    return { names: Object.keys(entries), read: (name) => Buffer.from(entries[name]!), whole: true, bytes, uncompressedBytes: totalLength(Object.values(entries)) };
  }
  execFileSync('unzip', ['-tq', path], { stdio: 'ignore' });
  const names = execFileSync('zipinfo', ['-1', path], { maxBuffer: 1e8 }).toString().split('\n').filter((name) => name && !name.endsWith('/'));
  // zipinfo -t: "1000 files, 2512345678 bytes uncompressed, 2501234567 bytes compressed:  0.4%"
  const uncompressedBytes = Number(/([0-9]+) bytes uncompressed/.exec(execFileSync('zipinfo', ['-t', path]).toString())?.[1] ?? NaN);
  return { names, read: (name) => execFileSync('unzip', ['-p', path, name], { maxBuffer: 1e9 }), whole: false, bytes, uncompressedBytes };
}

/** What the phone scenario's page is told it has (navigator.deviceMemory): a mid-range phone's. */
const PHONE_MEMORY_GB = 4;

export interface AppRunOptions {
  deviceMemoryGb?: number;
  /** The folder holding `paths` (and nothing else), added with "Add a folder" (Chromium's folder dialog) instead of the file picker. */
  folder?: string;
  phone?: PhoneOptions;
  /** false: the page as a host that sends no isolation headers serves it (core/isolation.ts), so AVIF runs on one thread. */
  isolated?: boolean;
}

export async function runApp(paths: string[], settings: AppSettings, { deviceMemoryGb, folder, phone, isolated = true }: AppRunOptions = {}): Promise<RunResult> {
  const { page, close } = await openPage(phone);
  const sampler = new ChromiumSampler();
  try {
    if (!isolated) await page.route(APP_URL, answerWithoutIsolationHeaders);
    await page.addInitScript(instrumentApp);
    // A phone's page is told a phone's memory unless the scenario says otherwise: the pool and the decodes follow it.
    await openIdleApp(page, deviceMemoryGb ?? (phone ? PHONE_MEMORY_GB : undefined));
    const idleMemoryMb = ChromiumSampler.currentMb();
    const intake = await prepareBatch(page, paths, settings, folder);
    const previews = Number(await page.getByTestId('selection-summary').getAttribute('data-previews'));
    let windows: PhoneTapWindows | null = null;
    if (phone) {
      windows = await convertOnPhone(page, paths.length, phone, () => sampler.start());
    } else {
      // At a point found beforehand, as on the phone (convertOnPhone).
      const convertAt = centre((await convertButton(page).boundingBox())!);
      sampler.start();
      await page.mouse.click(convertAt.x, convertAt.y);
      await allJobsSettled(page, paths.length);
    }
    const failures = await page.locator('[data-testid="job"][data-status="error"]').allTextContents();
    if (failures.length > 0) {
      sampler.stop();
      throw new Error(`app failed ${failures.length} of ${paths.length} jobs: ${failures[0]!.replace(/\s+/g, ' ').trim()}`);
    }
    // Watched from the batch's end, alongside the zip: the page's clock when no job says "Checking look…".
    const lastLookShown = page
      .waitForFunction(() => (document.querySelector('[data-testid="look-pending"]') === null ? performance.now() : false), undefined, { timeout: 600_000, polling: 100 })
      .then((shown) => shown.jsonValue() as Promise<number>);
    // Awaited after the zip; a failure on the way leaves it unawaited.
    lastLookShown.catch(() => undefined);
    const downloadAll = page.getByRole('button', { name: 'Download All (.zip)' });
    // A thousand photos' zip takes its time to start (Playwright's own limit is 30 s).
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), phone ? downloadAll.tap() : downloadAll.click()]);
    const zip = readZip(await download.path());
    // The looks judged after the batch (ConversionQueue): their memory in the peak, and when the last showed.
    const looksAt = await lastLookShown;
    const { peakMemoryMb, peakAtMs: peakMemoryAtMs, cpu } = sampler.stop();
    const bench = await page.evaluate(readRecord<AppRecord>);
    // By each input's name: the list's order is not the inputs'.
    const byName = await jobFigures(page);
    const figures = paths.map((path) => byName.get(basename(path)));
    const looks = figures.map((job) => job?.score ?? null);
    const smartQualities = figures.map((job) => job?.smartQuality ?? null);
    const encodes = figures.map((job) => job?.encodes ?? 0);
    const storageMb = await page.evaluate(async () => ((await navigator.storage.estimate()).usage ?? null));
    if (zip.names.length !== paths.length) throw new Error(`app produced ${zip.names.length} of ${paths.length} outputs`);
    // In the inputs' order (the SSIM pairs them): each output is named after its input, with the output's extension.
    const stem = (name: string) => basename(name).replace(/\.[^.]*$/, '');
    if (new Set(paths.map(stem)).size !== paths.length) throw new Error('two inputs share a name: the zip cannot tell their outputs apart');
    const byStem = new Map(zip.names.map((name) => [stem(name), name]));
    const outputs = paths.slice(0, zip.whole ? paths.length : OUTPUTS_READ_FROM_A_LARGE_ZIP).map((path) => {
      const name = byStem.get(stem(path));
      if (name === undefined) throw new Error(`the zip has no output for ${path}: ${zip.names.slice(0, 20).join(', ')}…`);
      return zip.read(name);
    });
    return {
      batchMs: bench.finishedAt - bench.convertAt,
      zipMs: bench.zipAt - bench.convertAt,
      looksMs: looksAt - bench.convertAt,
      longTasks: longTaskFigures(bench, bench.convertAt, bench.zipAt),
      peakMemoryMb,
      peakMemoryAtMs,
      idleMemoryMb,
      outputs,
      outputBytes: zip.uncompressedBytes,
      encodes,
      looks,
      smartQualities,
      cpu,
      taps: windows ? tapFigures(bench.events, bench.convertAt, bench.convertAt + 1, bench.zipAt, windows.idle) : undefined,
      oneWorkerBusy: windows ? oneWorkerBusyFigures(bench, windows.oneWorkerBusy) : undefined,
      scale: {
        intakeMs: Math.round(intake.listed - intake.from),
        previewsMs: Math.round(intake.to - intake.from),
        intakeLongTasks: longTaskFigures(bench, intake.from, intake.listed),
        previews,
        longestTaskMs: longTaskFigures(bench, intake.from, bench.zipAt).longestMs,
        // The app's own: less the folder's copy the bench made for the folder dialog.
        storageMb: storageMb === null ? null : Math.round((storageMb - intake.stagedBytes) / 1e6),
        zipBytes: zip.bytes,
        zipEntries: zip.names.length,
      },
    };
  } finally {
    sampler.stop();
    await close();
  }
}

/** The baseline pages: the seed design, browser-image-compression, and the HEIC libraries (one page, heic.html). */
const BASELINE_PAGES = { seed: 'seed.html', bic: 'bic.html', 'heic-to': 'heic.html?library=heic-to', heic2any: 'heic.html?library=heic2any' } as const;
export type BaselinePage = keyof typeof BASELINE_PAGES;

export async function runBaselinePage(pageName: BaselinePage, paths: string[], type: string, quality: number, phone?: PhoneOptions, concurrency = 3): Promise<RunResult> {
  const { page, close } = await openPage(phone);
  const sampler = new ChromiumSampler();
  try {
    const url = new URL(BASELINE_PAGES[pageName], `http://localhost:${BASELINE_PORT}/`);
    url.search = new URLSearchParams({ ...Object.fromEntries(url.searchParams), type, quality: String(quality), concurrency: String(concurrency) }).toString();
    await page.goto(url.href);
    await page.waitForTimeout(2000);
    const idleMemoryMb = ChromiumSampler.currentMb();
    await page.locator('#files').setInputFiles(paths);
    await throttle(page, phone);
    const emptyPlace = () => page.touchscreen.tap(195, 600);
    const idle = phone ? await tapIdlePage(page, emptyPlace) : null;
    sampler.start();
    const finished = page.waitForFunction(() => (window as unknown as { __bench: { finishedAt?: number } }).__bench.finishedAt !== undefined, undefined, { timeout: 1_800_000, polling: 250 });
    if (phone) {
      await page.locator('#convert').tap();
      // These pages have no settings: a tap on an empty part of the page still waits for the main thread.
      await tapUntil(emptyPlace, finished);
    } else {
      await page.locator('#convert').click();
      await finished;
    }
    const { peakMemoryMb, peakAtMs: peakMemoryAtMs, cpu } = sampler.stop();
    const bench = await page.evaluate(readRecord<PageRecord>);
    const outputs: Buffer[] = [];
    for (let i = 0; i < paths.length; i++) {
      const { base64 } = await page.evaluate((index) => (window as unknown as { outputBase64: (i: number) => Promise<{ base64: string }> }).outputBase64(index), i);
      outputs.push(Buffer.from(base64, 'base64'));
    }
    return {
      batchMs: bench.finishedAt - bench.convertAt,
      zipMs: null,
      outputBytes: totalLength(outputs),
      longTasks: longTaskFigures(bench, bench.convertAt, bench.finishedAt),
      peakMemoryMb,
      peakMemoryAtMs,
      idleMemoryMb,
      outputs,
      cpu,
      taps: phone ? tapFigures(bench.events, bench.convertAt, bench.convertAt + 1, bench.finishedAt, idle!) : undefined,
    };
  } finally {
    sampler.stop();
    await close();
  }
}

export function which(command: string): boolean {
  return ['/usr/bin', '/usr/local/bin', '/bin'].some((dir) => existsSync(join(dir, command)));
}

function exec(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile(command, args, (error) => (error ? reject(error) : resolve())));
}

/** Native encoders, two processes at a time: the physical limit of a 2-core machine. */
export async function runNative(paths: string[], command: (input: string, output: string) => [string, string[]], prepare?: (path: string) => Promise<string>): Promise<RunResult> {
  const inputs = prepare ? await Promise.all(paths.map(prepare)) : paths;
  const dir = mkdtempSync(join(tmpdir(), 'bench-native-'));
  const outputPaths = inputs.map((input) => join(dir, basename(input) + '.out'));
  const start = performance.now();
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < inputs.length) {
        const i = next++;
        const [bin, args] = command(inputs[i]!, outputPaths[i]!);
        await exec(bin, args);
      }
    }),
  );
  const batchMs = performance.now() - start;
  const outputs = outputPaths.map((p) => readFileSync(p));
  rmSync(dir, { recursive: true, force: true });
  return { batchMs, zipMs: null, longTasks: { count: 0, longestMs: 0, totalBlockingMs: 0, longFrames: 0 }, peakMemoryMb: null, idleMemoryMb: null, outputs, outputBytes: totalLength(outputs) };
}

