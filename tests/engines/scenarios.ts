import { statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { smartTarget } from '../../core/look.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { ENGINE_ROUTE_CASES, coveringWalk, expectedOutputs, formatsNamed, wrongOutputs, type CanvasEncodes } from '../route-cases.ts';
import { magicFormat, sharpReadable } from '../independentDecoders.ts';
import { chromiumCanvas, webkitCanvas } from '../unit/support/canvas.ts';
import { FORGET_KEPT_BATCH, KEPT_FILES, KEPT_SOURCE_SIZES, RECORDED_JOBS } from '../keptBatch.ts';
import { waitFor, type EngineSession, type Waiting } from './session.ts';

/**
 * What every engine must do, as a visitor would: add files and read the intake's verdicts, convert to each format,
 * download one result and all of them as a zip, and reload with the network gone. Downloads are taken where the app
 * hands them to the browser (the link it clicks), so no engine's download prompt is involved; the bytes are then
 * decoded here by sharp, a decoder independent of the browser.
 */

export interface ScenarioContext {
  session: EngineSession;
  /** The scenario's one limit (run.ts): every wait on the page goes on until the page answers or this ends it. */
  signal: AbortSignal;
  baseUrl: string;
  fixtureDir: string;
  /** Stops the app's server (the network is gone) and starts it again. */
  server: { stop: () => Promise<void>; start: () => Promise<void> };
}

export interface Scenario {
  name: string;
  run: (context: ScenarioContext) => Promise<void>;
}

/** Each scenario starts with nothing kept on the device. */
export async function startFresh(context: ScenarioContext): Promise<void> {
  await forgetKeptBatch(context);
}

/**
 * Installed in the page after each load: anchors the app clicks to download a Blob are read, not followed. The Blob is
 * taken from URL.createObjectURL as it is made (the page's Content-Security-Policy rightly forbids fetching blob: URLs).
 */
const CAPTURE_DOWNLOADS = `
  if (!window.__downloads) {
    const downloads = [];
    const blobs = new Map();
    window.__downloads = downloads;
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = function (object) {
      const url = createObjectURL.call(URL, object);
      blobs.set(url, object);
      return url;
    };
    const follow = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      const blob = this.download ? blobs.get(this.href) : undefined;
      if (!blob) return follow.call(this);
      const entry = { name: this.download, base64: null, error: null };
      downloads.push(entry);
      blob.arrayBuffer().then((buffer) => {
        const bytes = new Uint8Array(buffer);
        let text = '';
        for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
        entry.base64 = btoa(text);
      }, (error) => { entry.error = String(error); });
    };
  }
  return true;`;

/** Installed with it: what the app logs with console.error and what it leaves unhandled, for the runner's report of a failure. */
const CAPTURE_ERRORS = `
  if (!window.__errors) {
    const errors = [];
    window.__errors = errors;
    const log = console.error;
    console.error = function (...args) {
      errors.push(args.map((arg) => (arg && arg.stack) || String(arg)).join(' '));
      return log.apply(console, args);
    };
    addEventListener('error', (event) => errors.push(String(event.message)));
    addEventListener('unhandledrejection', (event) => errors.push(String(event.reason && event.reason.stack || event.reason)));
  }
  return true;`;

const fail = (message: string): never => {
  throw new Error(message);
};

function check(condition: boolean, message: string): void {
  if (!condition) fail(message);
}

async function open(context: ScenarioContext, path = '/'): Promise<void> {
  // The page before is marked first: it is alive too (every path of the app is), and where the engine answers a script
  // before the new page has replaced it, the hooks below went into the page on its way out: the next download then
  // found no `window.__downloads` (Firefox, twice in CI, both times the first download after a scenario's open).
  await context.session.run(`window.__replaced = true; return true;`);
  await context.session.goto(context.baseUrl + path);
  // No document element yet is "not yet": a page the service worker reloads as it takes control has none for a moment.
  await waitFor(context, `return !window.__replaced && (document.documentElement?.hasAttribute('data-alive') ?? false)`, 'the page to be alive');
  await context.session.run(CAPTURE_DOWNLOADS);
  await context.session.run(CAPTURE_ERRORS);
}

/** Waits until the page has opened the batch it keeps on the device, and says where it keeps it. */
const batchOpened = (context: Waiting) => waitFor<string>(context, `return document.documentElement.dataset.batch`, 'the batch kept on the device to open');

/**
 * Deletes what earlier scenarios left on the device (the app keeps a batch through reloads), from a page of the
 * origin that does not run the converter, in a tab of its own (the last scenario's page is closed, not cached): each
 * scenario starts as a first visit.
 */
async function forgetKeptBatch(context: ScenarioContext): Promise<void> {
  await context.session.gotoInNewTab(`${context.baseUrl}/no-such-page`);
  await context.session.run(FORGET_KEPT_BATCH);
}

const cardTexts = (session: EngineSession) => session.run<string[]>(`return [...document.querySelectorAll('[data-testid="file-card"]')].map((card) => card.textContent)`);

/**
 * Clicks the button whose accessible name (aria-label, else its text) is `name`, or starts with it, once the page shows
 * it enabled: a finished job's Download can come a render after its status says done. Found and clicked in one script,
 * so it cannot go away in between.
 */
async function clickButton(context: Waiting, name: string, { prefix = false } = {}): Promise<void> {
  await waitFor(
    context,
    `const name = ${JSON.stringify(name)};
    const button = [...document.querySelectorAll('button')].find((b) => {
      const label = (b.getAttribute('aria-label') || b.textContent || '').trim();
      return ${prefix} ? label.startsWith(name) : label === name;
    });
    if (!button || button.disabled) return false;
    button.click();
    return true;`,
    `an enabled button "${name}"`,
  );
}

/** Picks files as the visitor does; `cards` is how many file cards there are then (more when some were there before). */
async function addFiles(context: ScenarioContext, names: readonly string[], cards = names.length): Promise<void> {
  await context.session.upload('[data-testid="file-input"]', names.map((name) => join(context.fixtureDir, name)));
  await waitFor(context, `return document.querySelectorAll('[data-testid="file-card"]').length === ${cards}`, `${cards} file cards`);
}

/** Waits until no job is pending or processing, and gives each job's status. */
async function jobsSettled(context: Waiting, count: number): Promise<string[]> {
  return waitFor(
    context,
    `const jobs = [...document.querySelectorAll('[data-testid="job"]')].map((job) => job.dataset.status);
     return jobs.length === ${count} && jobs.every((status) => status === 'completed' || status === 'error') ? jobs : null;`,
    `${count} jobs to finish`,
  );
}

async function downloaded(context: Waiting, count: number): Promise<{ name: string; bytes: Buffer }[]> {
  const { session } = context;
  const entries = await waitFor<{ name: string; base64: string | null; error: string | null }[]>(
    context,
    `if (!window.__downloads) throw new Error('this page (' + location.href + ') has no download hook: it replaced the page open() hooked');
     return window.__downloads.length >= ${count} && window.__downloads.every((d) => d.base64 !== null || d.error) ? window.__downloads : null;`,
    `${count} downloads`,
  );
  return entries.map(({ name, base64, error }) => ({ name, bytes: base64 === null ? fail(`${session.engine}: ${name} could not be read: ${error}`) : Buffer.from(base64, 'base64') }));
}

const OUTPUTS = [
  { label: 'JPG', format: 'jpeg', extension: 'jpg' },
  { label: 'PNG', format: 'png', extension: 'png' },
  { label: 'WebP', format: 'webp', extension: 'webp' },
  { label: 'AVIF', format: 'avif', extension: 'avif' },
  { label: 'JPEG XL', format: 'jxl', extension: 'jxl' },
] as const;
/** The four formats, and the sources only: a HEIC, a JPEG XL and TIFFs (libheif, libjxl and UTIF where the engine has no decoder), GIFs and a BMP. */
const INPUTS = [FIXTURES.jpeg, FIXTURES.png, FIXTURES.webp, FIXTURES.avif, FIXTURES.heic, FIXTURES.jxl, FIXTURES.tiff, FIXTURES.multiPageTiff, FIXTURES.gif, FIXTURES.animatedGif, FIXTURES.bmp];
/**
 * What the format scenarios convert: the kinds the route scenarios below do not (a JPEG XL, a multi-page TIFF, GIFs, a
 * BMP), and a plain JPEG for the single download's name. A JPEG, PNG, WebP, AVIF, HEIC and TIFF go to every format
 * with the same settings there, each output compared with its reference rendering; converting them here again only
 * doubled the engines' time (a WebKitGTK job of a 400 × 300 picture takes seconds here).
 */
const CONVERTED = [FIXTURES.jpeg, FIXTURES.jxl, FIXTURES.multiPageTiff, FIXTURES.gif, FIXTURES.animatedGif, FIXTURES.bmp];

/** Checks a result is a `format` file that decodes, at the 400 × 300 of the inputs (a JPG, as jpegli makes it; a JPEG XL, by djxl). */
async function checkDecodes(engine: string, name: string, bytes: Buffer, format: string): Promise<void> {
  check(magicFormat(bytes) === format, `${engine}: ${name} is ${magicFormat(bytes)}, not ${format}`);
  const readable = (() => {
    try {
      return sharpReadable(bytes);
    } catch (error) {
      return fail(`${engine}: ${name} does not decode: ${String(error)}`);
    }
  })();
  const metadata = await sharp(readable).metadata().catch((error: unknown) => fail(`${engine}: ${name} does not decode: ${String(error)}`));
  check(metadata.width === 400 && metadata.height === 300, `${engine}: ${name} is ${metadata.width}×${metadata.height}, not 400×300`);
  // With the default "Optimised compression", a JPG comes from jpegli, whose frame is progressive (a canvas's is not).
  if (format === 'jpeg') check(metadata.isProgressive === true, `${engine}: ${name} is a baseline JPEG: jpegli did not make it`);
  await sharp(readable).raw().toBuffer();
}

async function convertAll(context: ScenarioContext, count: number): Promise<string[]> {
  await context.session.type('input[type="email"]', 'ada@example.com');
  await clickButton(context, 'Convert ', { prefix: true });
  return jobsSettled(context, count);
}

/** What each engine's canvas encodes, for the plans the shorter walk is made from (WebKit's has no WebP encoder). */
const CANVAS_OF: Record<string, CanvasEncodes> = { Firefox: chromiumCanvas, WebKitGTK: webkitCanvas };

/**
 * The route cases a visitor takes most (ENGINE_ROUTE_CASES: the default settings, then "Optimised compression" off, with
 * one source of each kind: a JPEG turned and mirrored by EXIF 7, PNG eXIf, WebP EXIF, AVIF irot and imir, an iPhone's
 * HEIC, a TIFF), each output compared with its reference rendering. The engine walks each source down every route the
 * plan gives it there and every format's encoder in each case (coveringWalk), not every source to every format: a
 * conversion here takes seconds (WebKitGTK's 30 of the default case took 73 s alone, its 18 of both cases now about
 * 40), and a source already seen down a route comes out the same way up whatever encoder follows. Both cases run in
 * one page, the switch turned off between them as a visitor would, so the second skips what the first walked and the
 * workers keep the codecs they compiled (a page a case started them all again).
 */
const routeScenario: Scenario = {
  name: `every oriented source comes out upright ${ENGINE_ROUTE_CASES.map((routeCase) => `with ${routeCase.name}, to ${formatsNamed(routeCase)}`).join(', and ')}`,
  async run(context) {
    const { session } = context;
    // What this try walks: a retry walks every case again in full.
    const walked = new Set<string>();
    const orientedDir = join(context.fixtureDir, 'oriented');
    await open(context);
    await session.type('input[type="email"]', 'ada@example.com');
    let selected: string[] = [];
    const wrong: string[] = [];
    for (const routeCase of ENGINE_ROUTE_CASES) {
      const passes = coveringWalk(routeCase, CANVAS_OF[session.engine]!, walked);
      const expected = await expectedOutputs(routeCase, orientedDir);
      if (routeCase.settings.enableCompression === false) {
        await session.run(`[...document.querySelectorAll('input[role="switch"]')].find((input) => input.labels[0]?.textContent.includes('Optimised compression')).click(); return true;`);
      }
      for (const pass of passes) {
        const names = pass.sources.map(({ name }) => name);
        for (const name of selected.filter((name) => !names.includes(name))) await clickButton(context, `Remove ${name}`);
        const missing = names.filter((name) => !selected.includes(name));
        if (missing.length > 0) await addFiles(context, missing.map((name) => join('oriented', name)), names.length);
        await waitFor(context, `return document.querySelectorAll('[data-testid="file-card"]').length === ${names.length}`, `${names.length} file cards`);
        selected = names;
        const output = OUTPUTS.find(({ format }) => format === pass.format)!;
        await session.run(`document.querySelector('input[name="output-format"][value="${output.format}"]').click(); return true;`);
        await clickButton(context, 'Convert ', { prefix: true });
        const statuses = await jobsSettled(context, names.length);
        check(statuses.every((status) => status === 'completed'), `${session.engine}: ${routeCase.name}, ${output.label} jobs ended ${statuses.join(', ')}`);
        const before = await session.run<number>(`return window.__downloads.length`);
        await clickButton(context, 'Download All (.zip)');
        const zip = (await downloaded(context, before + 1))[before]!;
        const entries = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(zip.bytes))).map(([name, bytes]) => [name, Buffer.from(bytes)]));
        const passWrong = await wrongOutputs(entries, new Map([...expected].filter(([name]) => names.includes(name))), output);
        wrong.push(...passWrong.map((line) => `${routeCase.name}: ${line}`));
        await clickButton(context, 'Clear finished');
        await waitFor(context, `return document.querySelectorAll('[data-testid="job"]').length === 0`, 'the finished jobs to be cleared');
      }
    }
    check(wrong.length === 0, `${session.engine}: ${wrong.length} outputs not upright:\n      ${wrong.join('\n      ')}`);
  },
};

/**
 * The longest the offline scenario waits for the service worker to take the page over: the whole scenario takes 3–11 s
 * in WebKitGTK when the worker installs (6–24 s when the corpus ran beside it, as it no longer does), and a worker that
 * stalls does not come later. A stall costs this wait and a second try (the clean clone of 3d59862: 62 s of a 918 s run
 * at one minute; 37 s at 30 s in a clean clone beside a busy process on 2026-12-01). It came only with Firefox's
 * scenarios running beside WebKitGTK's: none in 5 runs of the scenario alone and 4 of WebKitGTK's alone.
 */
const SERVICE_WORKER_LIMIT_MS = 20_000;

export const SCENARIOS: Scenario[] = [
  {
    name: 'intake: valid files are ready, each kind of bad file gets its message',
    async run(context) {
      await open(context);
      const names = [...INPUTS, FIXTURES.textAsPng, FIXTURES.tinyPng, FIXTURES.tooLarge, FIXTURES.svg, FIXTURES.plainText];
      await addFiles(context, names);
      const expected: Record<string, string> = {
        [FIXTURES.textAsPng]: 'Invalid file format. File may be corrupted or malicious.',
        [FIXTURES.tinyPng]: 'File too small to be a valid image.',
        [FIXTURES.tooLarge]: 'File too large. Maximum 25MB per file.',
        [FIXTURES.svg]: 'Unsupported format. Use JPG, PNG, WebP, AVIF, JPEG XL, HEIC, TIFF, GIF, or BMP.',
        [FIXTURES.plainText]: 'Not an image file.',
      };
      const cards = await cardTexts(context.session);
      for (const name of names) {
        const card = cards.find((text) => text.includes(name)) ?? fail(`${context.session.engine}: no card for ${name}`);
        const message = expected[name] ?? 'Ready to convert';
        check(card.includes(message), `${context.session.engine}: ${name} reads "${card}", not "${message}"`);
      }
    },
  },
  {
    // The kinds the route scenarios do not convert, each decoded in the engine (or by the codec standing in for its
    // decoder) and written as a JPG: jpegli's, which only a progressive frame shows. Every format's encoder runs in
    // the route scenarios below, each output compared with its reference; converting these five kinds to every format
    // as well took WebKitGTK 101 s of the engines' 4 minutes, for no encoder or decoder those two do not run.
    name: `JPEG XL, a TIFF's pages, GIF, BMP and a plain JPEG convert; a download and the zip decode`,
    async run(context) {
      const { session } = context;
      await open(context);
      // Isolated (COOP and COEP from the host): AVIF takes the single-threaded build here all the same, as neither
      // engine says how much memory the device has (wasm/avif/loader.ts).
      check((await session.run('return crossOriginIsolated;')) === true, `${session.engine}: the page is not cross-origin isolated`);
      await addFiles(context, CONVERTED);
      await session.type('input[type="email"]', 'ada@example.com');
      const output = OUTPUTS.find(({ format }) => format === 'jpeg')!;
      await session.run(`document.querySelector('input[name="output-format"][value="${output.format}"]').click(); return true;`);
      await clickButton(context, 'Convert ', { prefix: true });
      const statuses = await jobsSettled(context, CONVERTED.length);
      check(statuses.every((status) => status === 'completed'), `${session.engine}: ${output.label} jobs ended ${statuses.join(', ')}`);
      const before = await session.run<number>(`return window.__downloads.length`);
      const one = `photo.${output.extension}`;
      await clickButton(context, `Download ${one}`);
      await clickButton(context, 'Download All (.zip)');
      const [single, zip] = (await downloaded(context, before + 2)).slice(before);
      check(single!.name === one, `${session.engine}: the download is named ${single!.name}, not ${one}`);
      await checkDecodes(session.engine, one, single!.bytes, output.format);
      check(zip!.name === 'converted-images.zip', `${session.engine}: the zip is named ${zip!.name}`);
      const entries = unzipSync(new Uint8Array(zip!.bytes));
      check(Object.keys(entries).length === CONVERTED.length, `${session.engine}: the ${output.label} zip holds ${Object.keys(entries).join(', ')}`);
      for (const [name, bytes] of Object.entries(entries)) await checkDecodes(session.engine, `${name} in the zip`, Buffer.from(bytes), output.format);
    },
  },
  routeScenario,
  {
    name: `Smart compression to WebP: each job shows its look, at or above the default level's target, and decodes`,
    async run(context) {
      const { session } = context;
      await open(context);
      const names = [FIXTURES.jpeg, FIXTURES.png];
      await addFiles(context, names);
      await session.run(`document.querySelector('input[name="output-format"][value="webp"]').click(); return true;`);
      await session.run(`[...document.querySelectorAll('input[role="switch"]')].find((input) => input.labels[0]?.textContent.includes('Smart compression')).click(); return true;`);
      await waitFor(context, `return [...document.querySelectorAll('label')].some((label) => label.textContent.includes('Compression level'))`, 'the compression level');
      const statuses = await convertAll(context, names.length);
      check(statuses.every((status) => status === 'completed'), `${session.engine}: jobs ended ${statuses.join(', ')}`);
      // The metric's WebAssembly and the search ran in this engine's worker: every job says how it looks.
      // Read once every card shows its result: a finished job's result can come a render after its status says done.
      const looks = await waitFor<{ score: string | null; smartQuality: string | null }[]>(
        context,
        `const jobs = [...document.querySelectorAll('[data-testid="job"]')];
         if (!jobs.every((job) => job.querySelector('.job__result'))) return null;
         return jobs.map((job) => { const look = job.querySelector('[data-testid="look"]'); return { score: look?.dataset.score ?? null, smartQuality: look?.dataset.smartQuality ?? null }; });`,
        "every job's result",
      );
      const target = smartTarget(DEFAULT_SETTINGS.compressionLevel);
      for (const look of looks) {
        check(look.score !== null && Number(look.score) >= target, `${session.engine}: a job's look is ${look.score}, not at or above ${target}`);
        check(look.smartQuality !== null && Number(look.smartQuality) > 0, `${session.engine}: a job shows no Smart quality`);
      }
      await clickButton(context, 'Download All (.zip)');
      const [zip] = await downloaded(context, 1);
      const entries = unzipSync(new Uint8Array(zip!.bytes));
      check(Object.keys(entries).length === names.length, `${session.engine}: the zip holds ${Object.keys(entries).join(', ')}`);
      for (const [name, bytes] of Object.entries(entries)) await checkDecodes(session.engine, `${name} in the zip`, Buffer.from(bytes), 'webp');
    },
  },
  {
    name: 'offline: with the server gone, a reload shows the page and it still converts',
    async run(context) {
      const { session } = context;
      await open(context);
      // The service worker registers once the page is idle and takes the page over when its precache is in (seconds).
      // Should it never come, the registration's state says why: twice in WebKitGTK, both times a worker still
      // installing with no cache opened, and both passed on the runner's second try, in a browser of its own. So the
      // wait ends after SERVICE_WORKER_LIMIT_MS, not at the scenario's six minutes: the second try starts sooner.
      await waitFor(
        { ...context, limitMs: SERVICE_WORKER_LIMIT_MS },
        `return !!(navigator.serviceWorker && navigator.serviceWorker.controller)`,
        'the service worker to control the page',
        `const registration = navigator.serviceWorker && (await navigator.serviceWorker.getRegistration());
         if (!registration) return { registration: null, readyState: document.readyState };
         return { installing: registration.installing?.state ?? null, waiting: registration.waiting?.state ?? null, active: registration.active?.state ?? null, readyState: document.readyState, caches: await caches.keys() };`,
      );
      await context.server.stop();
      try {
        await open(context);
        await addFiles(context, [FIXTURES.jpeg]);
        await session.run(`document.querySelector('input[name="output-format"][value="webp"]').click(); return true;`);
        const statuses = await convertAll(context, 1);
        check(statuses[0] === 'completed', `${session.engine}: offline, the job ended ${statuses[0]}`);
        await clickButton(context, 'Download photo.webp');
        const [result] = await downloaded(context, 1);
        await checkDecodes(session.engine, 'photo.webp (offline)', result!.bytes, 'webp');
      } finally {
        await context.server.start();
      }
    },
  },
  {
    name: 'a reload mid-batch: what was done is listed again with the same bytes, the rest converts, the settings are kept; Clear finished forgets it',
    async run(context) {
      const { session } = context;
      await open(context);
      const where = await batchOpened(context);
      check(where === 'device', `${session.engine}: the batch is kept in ${where}, not on the device`);
      // A small photo converted to PNG and downloaded, then a 12 MP one added and converting when the page reloads: one
      // after the other, since converted together the 12 MP one can finish first (when the page runs one job at a
      // time). PNG, whose optimised encoder takes 10 s or more on 12 MP in these engines: a 12 MP JPG (jpegli) took
      // WebKitGTK 1.2 s, and the page then went 0.6 s after the job was seen converting, too close a race. After the
      // reload the job must be listed unfinished, so one that ended before the page went fails here.
      await session.run(`document.querySelector('input[name="output-format"][value="png"]').click(); return true;`);
      const jobStatus = (name: string) => `[...document.querySelectorAll('[data-testid="job"]')].find((job) => job.textContent.includes(${JSON.stringify(name)}))?.dataset.status`;
      await addFiles(context, [FIXTURES.jpeg]);
      const [small] = await convertAll(context, 1);
      check(small === 'completed', `${session.engine}: the small photo ended ${small}`);
      await clickButton(context, 'Download photo.png');
      const [before] = await downloaded(context, 1);
      await addFiles(context, [FIXTURES.photo12mp], 2);
      await clickButton(context, 'Convert ', { prefix: true });
      const largeBytes = statSync(join(context.fixtureDir, FIXTURES.photo12mp)).size;
      const state = `return {
        large: ${jobStatus(FIXTURES.photo12mp)},
        sources: await (async () => { ${KEPT_SOURCE_SIZES} })(),
        files: await (async () => { ${KEPT_FILES} })(),
      };`;
      await waitFor(
        context,
        `const { large, sources } = await (async () => { ${state} })();
         return large === 'processing' && sources.includes(${largeBytes});`,
        'the 12 MP photo converting with its source kept whole',
        state,
      );

      await open(context);
      await batchOpened(context);
      // Read from its card, not from the toast that says so: a toast is up for 5 s, and a busy machine's engine can take
      // seconds a script.
      const resumedAs = await waitFor<string>(context, `return ${jobStatus(FIXTURES.photo12mp)} ?? null`, 'the 12 MP photo to be listed again');
      check(resumedAs !== 'completed', `${session.engine}: after the reload the 12 MP photo is listed ${resumedAs}: it was not converting when the page went`);
      await waitFor(context, `return ${jobStatus(FIXTURES.jpeg)} === 'completed'`, 'the finished job to be listed again');
      const format = await session.run<string>(`return document.querySelector('input[name="output-format"]:checked').value`);
      check(format === 'png', `${session.engine}: after the reload the output format is ${format}, not the batch's png`);
      await clickButton(context, 'Download photo.png');
      const [after] = await downloaded(context, 1);
      check(after!.bytes.equals(before!.bytes), `${session.engine}: photo.png after the reload differs from the one before`);
      const statuses = await jobsSettled(context, 2);
      check(statuses.every((status) => status === 'completed'), `${session.engine}: after the reload the jobs ended ${statuses.join(', ')}`);
      await clickButton(context, 'Download camera-12mp.png');
      const [resumed] = await downloaded(context, 2).then((all) => all.slice(1));
      const metadata = await sharp(resumed!.bytes).metadata();
      check(metadata.format === 'png' && metadata.width === 4000 && metadata.height === 3000, `${session.engine}: the resumed output is ${metadata.format} ${metadata.width}×${metadata.height}`);

      await clickButton(context, 'Clear finished');
      await waitFor(context, `return (async () => { ${RECORDED_JOBS} })().then((jobs) => jobs === 0)`, 'the record to be cleared');
      await open(context);
      await batchOpened(context);
      const left = await session.run<number>(`return document.querySelectorAll('[data-testid="job"]').length`);
      check(left === 0, `${session.engine}: ${left} jobs come back after Clear finished`);
    },
  },
];
