/**
 * `npm run bench`: the app against its baselines on the same files, in one run, through the real page in headless
 * Chromium. Times are medians of --runs runs (default 3). Writes a table to stdout and
 * tests/bench/results/latest.{json,md} (latest-photos.{json,md} with --photos).
 *
 *   npm run bench                      all scenarios
 *   npm run bench -- --runs 1          quicker, noisier
 *   npm run bench -- --only webp,avif  some scenarios (coldstart, webp, jpeg, avif, memory, phone, lowmem, resize, many, target)
 *   npm run bench -- --match 'off|native'  only the contenders whose name matches (a regular expression)
 *   npm run bench -- --photos DIR      inputs made from the real photos in DIR instead of synthetic scenes
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { ssim } from 'ssim.js';
import { FORMATS } from '../../workers/formats';
import { instrumentApp, readRecord, type AppRecord } from './app-instrument';
import { longTaskFigures, median, oneWorkerBusyFigures, tapFigures, type LongTaskFigures, type OneWorkerBusyFigures, type PageRecord, type TapFigures } from './figures';
import { initialJavaScript, runLighthouse, type LighthouseFigures } from './coldstart';
import { naturalPhotos, photoSet, ppmCopy, type InputSet } from './inputs';
import { ChromiumSampler } from './chromium-sampler';
import { APP_URL, allJobsSettled, centre, convertButton, convertOnPhone, IDLE_TAPS, launchChromium, openContext, openIdleApp, prepareBatch, startAppServer, TAP_EVERY_MS, tapIdlePage, tapUntil, throttle, type AppSettings, type PhoneOptions, type PhoneTapWindows } from './app-page';

const ROOT = join(import.meta.dirname, '..', '..');
const RESULTS = join(import.meta.dirname, 'results');
const BASELINE_PORT = 4181;

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
};
const RUNS = Number(option('runs') ?? 3);
const ONLY = option('only')?.split(',');
/** Real photos to build the inputs from (scaled to size, light grain) instead of synthetic scenes. */
const NATURALS = option('photos') === undefined ? undefined : naturalPhotos(option('photos')!);
const MATCH = option('match') === undefined ? null : new RegExp(option('match')!);

interface RunResult {
  taps?: TapFigures;
  /** The app's taps on its idle page with one worker busy (convertOnPhone): what this machine allows a tap. */
  oneWorkerBusy?: OneWorkerBusyFigures;
  batchMs: number;
  zipMs: number | null;
  longTasks: LongTaskFigures;
  peakMemoryMb: number | null;
  /** Chromium's memory with the page open and idle, before any file: peak − idle is what the batch cost. */
  idleMemoryMb: number | null;
  outputs: Buffer[];
  encodes?: number[];
  /** CPU seconds per Chromium thread group over the batch (see ChromiumSampler). */
  cpu?: Record<string, number>;
}

interface ContenderSummary {
  name: string;
  batchMs: number | null;
  zipMs: number | null;
  runsMs: number[];
  longTasks: LongTaskFigures | null;
  peakMemoryMb: number | null;
  /** The worst run's peak over its idle page. */
  overIdleMb: number | null;
  totalBytes: number | null;
  ssim: number | null;
  /** CPU seconds per Chromium thread group, first run. */
  cpu?: Record<string, number>;
  /** The worst run's taps. */
  taps?: TapFigures;
  /** The taps with one worker busy, over all runs: their count, the slowest, and all their long tasks. */
  oneWorkerBusy?: OneWorkerBusyFigures & { runs: number };
  note?: string;
}

interface ScenarioResult {
  id: string;
  title: string;
  contenders: ContenderSummary[];
  extra?: Record<string, unknown>;
}

/** Serves the baseline pages and the locally installed browser-image-compression (its libURL: no CDN). */
function startBaselineServer(): http.Server {
  const files: Record<string, [string, string]> = {
    '/seed.html': [join(import.meta.dirname, 'baselines', 'seed.html'), 'text/html'],
    '/bic.html': [join(import.meta.dirname, 'baselines', 'bic.html'), 'text/html'],
    '/instrument.js': [join(import.meta.dirname, 'baselines', 'instrument.js'), 'text/javascript'],
    '/lib/browser-image-compression.js': [join(ROOT, 'node_modules', 'browser-image-compression', 'dist', 'browser-image-compression.js'), 'text/javascript'],
  };
  const server = http.createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://x').pathname];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[1] }).end(readFileSync(file[0]));
  });
  server.listen(BASELINE_PORT);
  return server;
}

async function runApp(paths: string[], settings: AppSettings, { deviceMemoryGb, phone }: { deviceMemoryGb?: number; phone?: PhoneOptions } = {}): Promise<RunResult> {
  const browser = await launchChromium();
  const sampler = new ChromiumSampler();
  try {
    const page = await (await openContext(browser, phone)).newPage();
    await page.addInitScript(instrumentApp);
    await openIdleApp(page, deviceMemoryGb);
    const idleMemoryMb = ChromiumSampler.currentMb();
    await prepareBatch(page, paths, settings);
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
    const downloadAll = page.getByRole('button', { name: 'Download All (.zip)' });
    const [download] = await Promise.all([page.waitForEvent('download'), phone ? downloadAll.tap() : downloadAll.click()]);
    const zip = readFileSync(await download.path());
    const { peakMemoryMb, cpu } = sampler.stop();
    const bench = await page.evaluate(readRecord<AppRecord>);
    const encodes = await page.locator('[data-testid="job"]').evaluateAll((jobs) => jobs.map((j) => Number((j as HTMLElement).dataset.encodes ?? 0)));
    const entries = unzipSync(new Uint8Array(zip));
    const outputs = Object.keys(entries)
      .sort()
      .map((name) => Buffer.from(entries[name]!));
    if (outputs.length !== paths.length) throw new Error(`app produced ${outputs.length} of ${paths.length} outputs`);
    return {
      batchMs: bench.finishedAt - bench.convertAt,
      zipMs: bench.zipAt - bench.convertAt,
      longTasks: longTaskFigures(bench, bench.convertAt, bench.zipAt),
      peakMemoryMb,
      idleMemoryMb,
      outputs,
      encodes,
      cpu,
      taps: windows ? tapFigures(bench.events, bench.convertAt, bench.convertAt + 1, bench.zipAt, windows.idle) : undefined,
      oneWorkerBusy: windows ? oneWorkerBusyFigures(bench, windows.oneWorkerBusy) : undefined,
    };
  } finally {
    sampler.stop();
    await browser.close();
  }
}

async function runBaselinePage(pageName: 'seed' | 'bic', paths: string[], type: string, quality: number, phone?: PhoneOptions, concurrency = 3): Promise<RunResult> {
  const browser = await launchChromium();
  const sampler = new ChromiumSampler();
  try {
    const page = await (await openContext(browser, phone)).newPage();
    await page.goto(`http://localhost:${BASELINE_PORT}/${pageName}.html?type=${encodeURIComponent(type)}&quality=${quality}&concurrency=${concurrency}`);
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
    const { peakMemoryMb, cpu } = sampler.stop();
    const bench = await page.evaluate(readRecord<PageRecord>);
    const outputs: Buffer[] = [];
    for (let i = 0; i < paths.length; i++) {
      const { base64 } = await page.evaluate((index) => (window as unknown as { outputBase64: (i: number) => Promise<{ base64: string }> }).outputBase64(index), i);
      outputs.push(Buffer.from(base64, 'base64'));
    }
    return {
      batchMs: bench.finishedAt - bench.convertAt,
      zipMs: null,
      longTasks: longTaskFigures(bench, bench.convertAt, bench.finishedAt),
      peakMemoryMb,
      idleMemoryMb,
      outputs,
      cpu,
      taps: phone ? tapFigures(bench.events, bench.convertAt, bench.convertAt + 1, bench.finishedAt, idle!) : undefined,
    };
  } finally {
    sampler.stop();
    await browser.close();
  }
}

function which(command: string): boolean {
  return ['/usr/bin', '/usr/local/bin', '/bin'].some((dir) => existsSync(join(dir, command)));
}

function exec(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile(command, args, (error) => (error ? reject(error) : resolve())));
}

/** Native encoders, two processes at a time: the physical limit of a 2-core machine. */
async function runNative(paths: string[], command: (input: string, output: string) => [string, string[]], prepare?: (path: string) => Promise<string>): Promise<RunResult> {
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
  return { batchMs, zipMs: null, longTasks: { count: 0, longestMs: 0, totalBlockingMs: 0, longFrames: 0 }, peakMemoryMb: null, idleMemoryMb: null, outputs };
}

/**
 * Mean SSIM of outputs against their sources, on a 1024×768 centre crop at full resolution (ssim.js). A resized
 * output is held against its source resized by sharp (a centre crop to the output's ratio, then Lanczos3).
 */
async function meanSsim(sources: string[], outputs: Buffer[], sample = 4): Promise<number> {
  const scores: number[] = [];
  for (let i = 0; i < Math.min(sample, outputs.length); i++) {
    const [source, output] = [await sharp(sources[i]!).metadata(), await sharp(outputs[i]!).metadata()];
    const reference = source.width === output.width && source.height === output.height ? sources[i]! : await sharp(sources[i]!).resize(output.width, output.height, { fit: 'cover' }).png().toBuffer();
    const meta = await sharp(reference).metadata();
    const width = Math.min(1024, meta.width!);
    const height = Math.min(768, meta.height!);
    const region = { left: Math.floor((meta.width! - width) / 2), top: Math.floor((meta.height! - height) / 2), width, height };
    const read = async (input: string | Buffer) => {
      const { data, info } = await sharp(input).extract(region).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
    };
    scores.push(ssim(await read(reference), await read(outputs[i]!)).mssim);
  }
  return Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 10000) / 10000;
}

interface Contender {
  name: string;
  once: () => Promise<RunResult>;
}

/** A contender that does not run here, with the reason. */
interface Skipped {
  name: string;
  note: string;
}

async function summarise(name: string, inputs: InputSet, results: RunResult[]): Promise<ContenderSummary> {
  const first = results[0]!;
  const worst = (pick: (r: RunResult) => number) => Math.max(...results.map(pick));
  return {
    name,
    batchMs: Math.round(median(results.map((r) => r.batchMs))),
    zipMs: first.zipMs === null ? null : Math.round(median(results.map((r) => r.zipMs!))),
    runsMs: results.map((r) => Math.round(r.batchMs)),
    longTasks: {
      count: worst((r) => r.longTasks.count),
      longestMs: worst((r) => r.longTasks.longestMs),
      totalBlockingMs: worst((r) => r.longTasks.totalBlockingMs),
      longFrames: worst((r) => r.longTasks.longFrames),
      at: results.flatMap((r) => r.longTasks.at ?? []),
    },
    peakMemoryMb: first.peakMemoryMb === null ? null : worst((r) => r.peakMemoryMb!),
    overIdleMb: first.peakMemoryMb === null || first.idleMemoryMb === null ? null : worst((r) => r.peakMemoryMb! - r.idleMemoryMb!),
    totalBytes: first.outputs.reduce((sum, b) => sum + b.length, 0),
    ssim: await meanSsim(inputs.paths, first.outputs),
    cpu: first.cpu,
    taps: first.taps
      ? {
          taps: Math.min(...results.map((r) => r.taps!.taps)),
          slowestMs: worst((r) => r.taps!.slowestMs),
          slowest: results.reduce((a, b) => (b.taps!.slowestMs > a.taps!.slowestMs ? b : a)).taps!.slowest,
          convertTapMs: worst((r) => r.taps!.convertTapMs ?? 0),
          idleSlowestMs: worst((r) => r.taps!.idleSlowestMs ?? 0),
        }
      : undefined,
    oneWorkerBusy: first.oneWorkerBusy
      ? {
          runs: results.length,
          taps: results.reduce((sum, r) => sum + r.oneWorkerBusy!.taps, 0),
          slowestMs: worst((r) => r.oneWorkerBusy!.slowestMs),
          longTasks: results.reduce((sum, r) => sum + r.oneWorkerBusy!.longTasks, 0),
          longestTaskMs: worst((r) => r.oneWorkerBusy!.longestTaskMs),
        }
      : undefined,
  };
}

/**
 * Runs the contenders in rounds (one run of each, then the next round), so a slow spell of a shared machine
 * falls on every contender alike instead of on whichever ran then; times are medians over the rounds.
 */
async function measure(inputs: InputSet, runs: number, entries: (Contender | Skipped)[]): Promise<ContenderSummary[]> {
  const chosen = entries.map((entry) => ('once' in entry && MATCH && !MATCH.test(entry.name) ? { name: entry.name, note: 'not selected by --match' } : entry));
  const results = new Map<Contender, RunResult[]>();
  for (let round = 1; round <= runs; round++) {
    for (const entry of chosen) {
      if (!('once' in entry)) continue;
      process.stdout.write(`  ${entry.name}: run ${round}/${runs}… `);
      const result = await entry.once();
      process.stdout.write(`${(result.batchMs / 1000).toFixed(1)} s\n`);
      results.set(entry, [...(results.get(entry) ?? []), result]);
    }
  }
  const summaries: ContenderSummary[] = [];
  for (const entry of chosen) summaries.push('once' in entry ? await summarise(entry.name, inputs, results.get(entry)!) : skipped(entry.name, entry.note));
  return summaries;
}

const skipped = (name: string, note: string): ContenderSummary => ({
  name,
  batchMs: null,
  zipMs: null,
  runsMs: [],
  longTasks: null,
  peakMemoryMb: null,
  overIdleMb: null,
  totalBytes: null,
  ssim: null,
  note,
});

const wanted = (id: string) => !ONLY || ONLY.includes(id);

async function scenarioWebp(): Promise<ScenarioResult> {
  const inputs = await photoSet(12, 4000, 3000, NATURALS);
  const contenders = await measure(inputs, RUNS, [
    { name: 'app, optimised (libwebp WASM)', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true }) },
    { name: 'app, compression off (browser encoder)', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: false }) },
    { name: 'seed design (main-thread canvas)', once: () => runBaselinePage('seed', inputs.paths, 'image/webp', 0.8) },
    { name: 'browser-image-compression', once: () => runBaselinePage('bic', inputs.paths, 'image/webp', 0.8) },
    which('cwebp')
      ? { name: 'native cwebp ×2 processes', once: () => runNative(inputs.paths, (i, o) => ['cwebp', ['-quiet', '-q', '80', i, '-o', o]]) }
      : { name: 'native cwebp', note: 'cwebp not installed (apt-get install webp)' },
  ]);
  return { id: 'webp', title: `${inputs.name} JPEG → WebP q80`, contenders };
}

async function scenarioJpeg(): Promise<ScenarioResult> {
  const inputs = await photoSet(12, 4000, 3000, NATURALS);
  const contenders = await measure(inputs, RUNS, [
    { name: 'app, compression off (browser encoder)', once: () => runApp(inputs.paths, { format: 'JPG', quality: 80, compression: false }) },
    { name: 'app, compression on (mozjpeg WASM)', once: () => runApp(inputs.paths, { format: 'JPG', quality: 80, compression: true }) },
    { name: 'seed design (main-thread canvas)', once: () => runBaselinePage('seed', inputs.paths, 'image/jpeg', 0.8) },
    { name: 'browser-image-compression', once: () => runBaselinePage('bic', inputs.paths, 'image/jpeg', 0.8) },
    which('cjpeg')
      ? { name: 'native cjpeg (libjpeg-turbo) ×2 processes', once: () => runNative(inputs.paths, (i, o) => ['cjpeg', ['-quality', '80', '-optimize', '-outfile', o, i]], ppmCopy) }
      : { name: 'native cjpeg', note: 'cjpeg not installed (apt-get install libjpeg-turbo-progs)' },
  ]);
  return { id: 'jpeg', title: `${inputs.name} JPEG → JPEG q80`, contenders };
}

async function scenarioAvif(): Promise<ScenarioResult> {
  const inputs = await photoSet(6, 1600, 1200, NATURALS);
  // jSquash's AVIF quality q maps to quantizer round((100 − q) × 63 / 100); avifenc 0.11 takes the quantizer.
  const quantizer = String(Math.round(((100 - 80) * 63) / 100));
  const contenders = await measure(inputs, RUNS, [
    { name: `app (libavif WASM, speed ${FORMATS.avif.optimisedOptions.speed})`, once: () => runApp(inputs.paths, { format: 'AVIF', quality: 80, compression: true }) },
    { name: 'seed design (main-thread canvas)', note: 'cannot: no browser encodes AVIF from a canvas (toBlob returns PNG)' },
    { name: 'browser-image-compression', note: 'cannot: it encodes through the canvas too' },
    which('avifenc')
      ? {
          name: 'native avifenc ×2 processes (speed 6)',
          once: () => runNative(inputs.paths, (i, o) => ['avifenc', ['-s', '6', '-j', '1', '--min', quantizer, '--max', quantizer, i, o]]),
        }
      : { name: 'native avifenc', note: 'avifenc not installed (apt-get install libavif-bin)' },
  ]);
  return { id: 'avif', title: `${inputs.name} JPEG → AVIF q80`, contenders };
}

/** `count` files made of the photos of `inputs` under distinct names (the same bytes several times over). */
function repeated(inputs: InputSet, count: number, name: string): InputSet {
  const dir = join(dirname(inputs.paths[0]!), '..', `${count}-of-${basename(dirname(inputs.paths[0]!))}`);
  mkdirSync(dir, { recursive: true });
  const paths = Array.from({ length: count }, (_, i) => {
    const path = join(dir, `photo-${String(i + 1).padStart(3, '0')}.jpg`);
    if (!existsSync(path)) copyFileSync(inputs.paths[i % inputs.paths.length]!, path);
    return path;
  });
  return { name, paths };
}

async function scenarioMemory(): Promise<ScenarioResult> {
  const twelve = await photoSet(12, 4000, 3000, NATURALS);
  const fortyEight = repeated(twelve, 48, '48 × 12 MP');
  const settings: AppSettings = { format: 'WebP', quality: 80, compression: false };
  const contenders = [
    ...(await measure(twelve, 1, [{ name: 'app, 12 images', once: () => runApp(twelve.paths, settings) }])),
    ...(await measure(fortyEight, 1, [{ name: 'app, 48 images', once: () => runApp(fortyEight.paths, settings) }])),
  ];
  const [a, b] = contenders;
  return { id: 'memory', title: '12 vs 48 × 12 MP → WebP q80 (browser encoder): memory growth', contenders, extra: { ratio48to12: b!.overIdleMb! / a!.overIdleMb! } };
}

/**
 * A phone's memory: Chromium reports navigator.deviceMemory as 2 (what a 2 GB phone reports), so the pool's budget
 * lets one 12 MP photo decode at a time; beside the same batch on this machine's 8.
 */
async function scenarioLowMemory(): Promise<ScenarioResult> {
  const inputs = await photoSet(12, 4000, 3000, NATURALS);
  const contenders = await measure(inputs, RUNS, [
    { name: 'app, optimised, deviceMemory 8', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true }, { deviceMemoryGb: 8 }) },
    { name: 'app, optimised, deviceMemory 2', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true }, { deviceMemoryGb: 2 }) },
    { name: 'app, compression off, deviceMemory 8', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: false }, { deviceMemoryGb: 8 }) },
    { name: 'app, compression off, deviceMemory 2', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: false }, { deviceMemoryGb: 2 }) },
  ]);
  return { id: 'lowmem', title: `${inputs.name} JPEG → WebP q80 with a phone's memory (deviceMemory 2 vs 8)`, contenders };
}

/**
 * A phone's CPU: 390 × 844 touch screen, the page 4× (and 6×) slower, "Rotate right" tapped every 600 ms while the
 * batch runs; the same batch unthrottled, and the baselines under the same throttle. Two batches: 8 photos to JPG
 * with the browser encoder (fast jobs, many UI updates), and 4 with the default settings (WebP, optimised).
 */
async function scenarioPhoneCpu(): Promise<ScenarioResult[]> {
  const scenarios: ScenarioResult[] = [];
  const batches = [
    { count: 8, settings: { format: 'JPG', quality: 80, compression: false } as AppSettings, type: 'image/jpeg', title: 'JPEG → JPG q80, compression off' },
    { count: 4, settings: { format: 'WebP', quality: 80, compression: true } as AppSettings, type: 'image/webp', title: 'JPEG → WebP q80, default settings (optimised)' },
  ];
  for (const [i, batch] of batches.entries()) {
    const inputs = await photoSet(batch.count, 4000, 3000, NATURALS);
    const contenders = await measure(inputs, RUNS, [
      { name: 'app, phone, CPU 4× slower', once: () => runApp(inputs.paths, batch.settings, { phone: { slowdown: 4 } }) },
      { name: 'app, phone, CPU 6× slower', once: () => runApp(inputs.paths, batch.settings, { phone: { slowdown: 6 } }) },
      { name: 'app, phone, CPU unthrottled', once: () => runApp(inputs.paths, batch.settings, { phone: { slowdown: 1 } }) },
      { name: 'seed design, phone, CPU 4× slower', once: () => runBaselinePage('seed', inputs.paths, batch.type, 0.8, { slowdown: 4 }) },
      { name: 'browser-image-compression, phone, CPU 4× slower', once: () => runBaselinePage('bic', inputs.paths, batch.type, 0.8, { slowdown: 4 }) },
      // The same worker-based converter unthrottled: how much of the throttled batch's extra time the emulation itself
      // costs (DevTools' throttling shows as CPU time of the page's main thread, which a 2-core machine takes from the workers).
      { name: 'browser-image-compression, phone, CPU unthrottled', once: () => runBaselinePage('bic', inputs.paths, batch.type, 0.8, { slowdown: 1 }) },
      // The floor this machine sets: one image at a time in one worker, and a page that does nothing else but answer
      // the taps. What the app's long tasks and taps have beyond it is the app's own; what this has, the machine's.
      { name: 'browser-image-compression one at a time, phone, CPU 4× slower', once: () => runBaselinePage('bic', inputs.paths, batch.type, 0.8, { slowdown: 4 }, 1) },
    ]);
    const [slow, , fast, , bicSlow, bicFast] = contenders;
    scenarios.push({
      id: i === 0 ? 'phone' : 'phone-default',
      title: `A phone's CPU: ${inputs.name} ${batch.title}, taps every ${TAP_EVERY_MS} ms`,
      contenders,
      extra: { throttledOverUnthrottled: slow!.batchMs! / fast!.batchMs!, baselineThrottledOverUnthrottled: bicSlow!.batchMs! / bicFast!.batchMs! },
    });
  }
  return scenarios;
}

/** A phone's everyday resize: 12 MP photos for the web (the "Web 1920 wide" preset), which decode at half size. */
async function scenarioResize(): Promise<ScenarioResult> {
  const inputs = await photoSet(12, 4000, 3000, NATURALS);
  const preset = 'Web 1920 wide';
  const contenders = await measure(inputs, RUNS, [
    { name: 'app, optimised', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true, preset }) },
    { name: 'app, compression off', once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: false, preset }) },
  ]);
  return { id: 'resize', title: `${inputs.name} JPEG → WebP q80, "${preset}"`, contenders };
}

/** A heavy batch: 200 photos of 2 MP with the default settings. */
async function scenarioMany(): Promise<ScenarioResult> {
  const many = repeated(await photoSet(6, 1600, 1200, NATURALS), 200, '200 × 2 MP');
  const contenders = await measure(many, 1, [{ name: 'app, 200 × 2 MP, default settings (optimised)', once: () => runApp(many.paths, { format: 'WebP', quality: 80, compression: true }) }]);
  return { id: 'many', title: '200 × 2 MP JPEG → WebP q80 (default settings)', contenders };
}

async function scenarioTarget(): Promise<ScenarioResult> {
  const inputs = await photoSet(1, 4000, 3000, NATURALS);
  const rows: { targetKb: number; sizeKb: number; ratio: number; encodes: number }[] = [];
  for (const targetKb of [150, 400, 1000, 2500]) {
    const result = await runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true, targetKb });
    const sizeKb = result.outputs[0]!.length / 1024;
    rows.push({ targetKb, sizeKb: Math.round(sizeKb), ratio: Math.round((sizeKb / targetKb) * 1000) / 1000, encodes: result.encodes?.[0] ?? 0 });
    console.log(`  target ${targetKb} KB → ${Math.round(sizeKb)} KB (${(sizeKb / targetKb).toFixed(3)}×) in ${result.encodes?.[0]} encodes`);
  }
  return { id: 'target', title: 'Target-size accuracy (one 12 MP photo → WebP)', contenders: [], extra: { rows } };
}

/** First paint and the JavaScript before it: Lighthouse mobile, the worst of --runs runs by performance score. */
async function scenarioColdStart(): Promise<ScenarioResult> {
  const scripts = initialJavaScript();
  const runs: LighthouseFigures[] = [];
  for (let round = 1; round <= RUNS; round++) {
    process.stdout.write(`  Lighthouse mobile: run ${round}/${RUNS}… `);
    const figures = await runLighthouse(APP_URL);
    process.stdout.write(`performance ${figures.scores.performance}, LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms\n`);
    runs.push(figures);
  }
  const worst = runs.sort((a, b) => a.scores.performance! - b.scores.performance!)[0]!;
  return { id: 'coldstart', title: 'Cold start: the JavaScript before the page runs, and Lighthouse mobile (slow 4G, CPU 4× slower)', contenders: [], extra: { scripts, lighthouse: worst } };
}

const fmtS = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);
const fmtMb = (bytes: number | null) => (bytes === null ? '—' : `${(bytes / 1024 / 1024).toFixed(2)} MB`);

function table(scenario: ScenarioResult): string {
  if (scenario.id === 'coldstart') {
    const scripts = scenario.extra!.scripts as { file: string; gzipBytes: number }[];
    const lh = scenario.extra!.lighthouse as LighthouseFigures;
    const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    return [
      `### ${scenario.title}`,
      '',
      `Initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (${scripts.map((s) => `${s.file} ${(s.gzipBytes / 1024).toFixed(1)} KB`).join(', ')}; goal ≤ 100 KB).`,
      '',
      '| performance | accessibility | best practices | SEO | FCP | LCP | TBT |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      `| ${lh.scores.performance} | ${lh.scores.accessibility} | ${lh.scores['best-practices']} | ${lh.scores.seo} | ${lh.fcpMs} ms | ${lh.lcpMs} ms | ${lh.tbtMs} ms |`,
      '',
      `Not passing: ${lh.failing.length === 0 ? 'none' : lh.failing.join(', ')}.`,
    ].join('\n');
  }
  if (scenario.id === 'target') {
    const rows = (scenario.extra!.rows as { targetKb: number; sizeKb: number; ratio: number; encodes: number }[]).map(
      (r) => `| ${r.targetKb} KB | ${r.sizeKb} KB | ${r.ratio.toFixed(3)} | ${r.encodes} |`,
    );
    return [`### ${scenario.title}`, '', '| target | result | result ÷ target | encodes |', '| --- | --- | --- | --- |', ...rows].join('\n');
  }
  const app = scenario.contenders[0]!;
  const lines = [
    `### ${scenario.title}`,
    '',
    '| contender | batch (median) | app ÷ this | to zip | long tasks (count / longest / TBT) | long frames | peak memory (over the idle page) | output | SSIM |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const c of scenario.contenders) {
    const ratio = c.batchMs && app.batchMs ? (app.batchMs / c.batchMs).toFixed(2) : '—';
    const lt = c.longTasks ? `${c.longTasks.count} / ${c.longTasks.longestMs} ms / ${c.longTasks.totalBlockingMs} ms` : '—';
    const frames = c.longTasks ? String(c.longTasks.longFrames) : '—';
    const mem = c.peakMemoryMb === null ? '—' : `${c.peakMemoryMb} MB (+${c.overIdleMb ?? '?'} MB)`;
    lines.push(`| ${c.name}${c.note ? ` (${c.note})` : ''} | ${fmtS(c.batchMs)} | ${ratio} | ${fmtS(c.zipMs)} | ${lt} | ${frames} | ${mem} | ${fmtMb(c.totalBytes)} | ${c.ssim ?? '—'} |`);
  }
  const cpuLines = scenario.contenders
    .filter((c) => c.cpu)
    .map((c) => {
      const entries = Object.entries(c.cpu!);
      const total = entries.reduce((sum, [, s]) => sum + s, 0);
      const top = entries.slice(0, 5).map(([group, s]) => `${group} ${s.toFixed(1)}`);
      return `- ${c.name}: ${total.toFixed(1)} s — ${top.join(', ')}`;
    });
  if (cpuLines.length > 0) lines.push('', 'CPU seconds by Chromium thread over the batch (first run; the UI thread is renderer/chromium, the main thread of the renderer):', '', ...cpuLines);
  const tapLines = scenario.contenders
    .filter((c) => c.taps)
    .map((c) => {
      const parts = c.taps!.slowest;
      const split = parts ? ` (waiting for the thread ${parts.waitingMs}, handlers ${parts.handlersMs}, to the paint ${parts.toPaintMs})` : '';
      const busy = c.oneWorkerBusy;
      const floor = busy ? `; with one worker busy, slowest of ${busy.taps} taps in ${busy.runs} run${busy.runs === 1 ? "" : "s"} ${busy.slowestMs} ms, ${busy.longTasks} long tasks (longest ${busy.longestTaskMs} ms)` : '';
      return `- ${c.name}: slowest of ${c.taps!.taps} taps ${c.taps!.slowestMs} ms${split}; the Convert tap ${c.taps!.convertTapMs} ms; the idle page beforehand, slowest of ${IDLE_TAPS} taps ${c.taps!.idleSlowestMs} ms${floor}`;
    });
  if (tapLines.length > 0) {
    lines.push(
      '',
      "Taps, input to next paint (Event Timing; the worst run; goal ≤ 100 ms; the idle page's are the same taps with no batch running, and then with one worker of the page's own running a loop: what this machine allows a tap while one job runs, with none of a batch's work on the page):",
      '',
      ...tapLines,
    );
  }
  if (scenario.extra?.throttledOverUnthrottled) {
    const baseline = scenario.extra.baselineThrottledOverUnthrottled as number;
    lines.push('', `Batch time, CPU 4× slower ÷ unthrottled: app ${(scenario.extra.throttledOverUnthrottled as number).toFixed(2)}× (goal ≤ 1.1×); browser-image-compression ${baseline.toFixed(2)}×.`);
  }
  if (scenario.extra?.ratio48to12) lines.push('', `Peak memory over the idle page, 48 ÷ 12 images: ${(scenario.extra.ratio48to12 as number).toFixed(2)}× (goal ≤ 1.1×).`);
  const seed = scenario.contenders.find((c) => c.name.startsWith('seed design') && c.overIdleMb);
  if (seed) {
    const ratios = scenario.contenders.filter((c) => c.name.startsWith('app') && c.overIdleMb).map((c) => `${c.name}: ${(c.overIdleMb! / seed.overIdleMb!).toFixed(2)}×`);
    lines.push('', `Peak memory over the idle page, app ÷ seed design: ${ratios.join('; ')} (goal ≤ 1.2×).`);
  }
  return lines.join('\n');
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('Build first: npm run build');
  mkdirSync(RESULTS, { recursive: true });
  const appServer = await startAppServer();
  const baselineServer = startBaselineServer();
  try {
    const scenarios: ScenarioResult[] = [];
    const plan: [string, () => Promise<ScenarioResult | ScenarioResult[]>][] = [
      ['coldstart', scenarioColdStart],
      ['webp', scenarioWebp],
      ['jpeg', scenarioJpeg],
      ['avif', scenarioAvif],
      ['memory', scenarioMemory],
      ['phone', scenarioPhoneCpu],
      ['lowmem', scenarioLowMemory],
      ['resize', scenarioResize],
      ['many', scenarioMany],
      ['target', scenarioTarget],
    ];
    for (const [id, run] of plan) {
      if (!wanted(id)) continue;
      console.log(`\n${id}:`);
      scenarios.push(...[await run()].flat());
    }
    const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
    const browserVersion = await launchChromium().then(async (b) => {
      const v = b.version();
      await b.close();
      return v;
    });
    const header = `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu}, ${(await import('node:os')).cpus().length} cores, Chromium ${browserVersion}; times are medians of ${RUNS} run(s); long tasks and memory are the worst run.`;
    const markdown = [header, '', ...scenarios.map(table).flatMap((t) => [t, ''])].join('\n');
    console.log(`\n${markdown}`);
    const stem = NATURALS ? 'latest-photos' : 'latest';
    writeFileSync(join(RESULTS, `${stem}.json`), JSON.stringify({ date: new Date().toISOString(), runs: RUNS, cpu, browserVersion, photos: NATURALS ?? null, scenarios }, null, 2));
    writeFileSync(join(RESULTS, `${stem}.md`), markdown);
  } finally {
    appServer.kill();
    baselineServer.close();
  }
}

await main();
