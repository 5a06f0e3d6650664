import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../playwright.config.ts';
import { slowPageCpu, TAP_EVERY_MS, tapPoint } from '../phone-cpu.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** Vite's own script, run by this Node (not through npx and a shell, whose kill() leaves Vite running). */
export const VITE_BIN = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
export const APP_PORT = 4180;
export const APP_URL = `http://localhost:${APP_PORT}/`;

async function waitForHttp(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * `vite preview` of a production build (`dist`, built beforehand, or another `outDir`), once it answers; kill() the result to stop it. Vite
 * runs as the child itself: through npx, kill() stopped npx and left the server holding the port and the bench's
 * event loop, so a finished bench never exited. `env` is the build's configuration where it has one: the preview's
 * headers follow it (connect-src opens to the configured integrations, vite.config.ts).
 */
export async function startAppServer(outDir = join(ROOT, 'dist'), port = APP_PORT, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [VITE_BIN, 'preview', '--outDir', outDir, '--port', String(port), '--strictPort'], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, ...env } });
  await waitForHttp(`http://localhost:${port}/`);
  return child;
}

/** The same Chromium and flags as the end-to-end tests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

export interface AppSettings {
  format: 'JPG' | 'PNG' | 'WebP' | 'AVIF' | 'JPEG XL';
  quality: number;
  compression: boolean;
  targetKb?: number;
  /** A quick preset's button label, e.g. "Web 1920 wide". */
  preset?: string;
  /** Smart compression on, at this compression level. */
  smartLevel?: number;
}

/** A quiet moment after loading, so the idle page's memory is read once start-up garbage is gone. */
const SETTLE_MS = 2000;

/** Opens the app (a build served at `url`) and lets it settle: what the page holds now is its idle memory. */
export async function openIdleApp(page: Page, deviceMemoryGb?: number, url = APP_URL): Promise<void> {
  // The UI thread reads navigator.deviceMemory for the pixel limit and the pool's budget (workers are handed both).
  if (deviceMemoryGb !== undefined) await page.addInitScript(`Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => ${deviceMemoryGb} })`);
  await page.goto(url);
  await page.waitForTimeout(SETTLE_MS);
}

/** On the page's clock: when the files were handed to the page, when every one was listed, and when every card in the page had its preview. */
export interface IntakeWindow {
  from: number;
  listed: number;
  to: number;
  /** Bytes of the origin's storage the folder's copy for the folder dialog takes (stageFolderForDialog); 0 without. */
  stagedBytes: number;
}

/** Where the bench's copy of a folder sits in the origin's private file system. */
const STAGED_ROOT = 'bench-staged-folders';

/**
 * A folder as Chromium's folder dialog hands it to the page ("Add a folder", a visitor's route on a desktop): the
 * dialog cannot be driven headless, so the folder's files are first copied into a folder of the origin's private file
 * system (the same FileSystemDirectoryHandle a folder on the disk gives), and the dialog is made to give that one.
 * The copy goes in through a file input of its own, before the intake's clock starts. Returns the storage it takes.
 */
async function stageFolderForDialog(page: Page, folder: string, paths: string[]): Promise<number> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.hidden = true;
    input.id = 'bench-staging';
    document.body.append(input);
  });
  await page.locator('#bench-staging').setInputFiles(paths);
  const staged = await page.evaluate(
    async ({ root, name }) => {
      const input = document.getElementById('bench-staging') as HTMLInputElement;
      const before = (await navigator.storage.estimate()).usage ?? 0;
      const staged = await (await (await navigator.storage.getDirectory()).getDirectoryHandle(root, { create: true })).getDirectoryHandle(name, { create: true });
      for (const file of input.files ?? []) {
        const writable = await (await staged.getFileHandle(file.name, { create: true })).createWritable();
        await writable.write(file);
        await writable.close();
      }
      input.remove();
      (window as unknown as { __benchStaged: unknown }).__benchStaged = staged;
      return ((await navigator.storage.estimate()).usage ?? 0) - before;
    },
    { root: STAGED_ROOT, name: basename(folder) },
  );
  // As a string: a function in a page function gets a name helper from tsx that the page does not have.
  await page.evaluate(`Object.defineProperty(window, 'showDirectoryPicker', { configurable: true, value: async () => window.__benchStaged })`);
  return staged;
}

/**
 * Settings, e-mail and files on the app's open page, waiting until every preview is made: what follows is the batch.
 * The files go in through the file picker (`paths`), or as the folder `folder` holding them through "Add a folder",
 * which in Chromium opens its folder dialog (stageFolderForDialog).
 */
export async function prepareBatch(page: Page, paths: string[], settings: AppSettings, folder?: string): Promise<IntakeWindow> {
  await page.getByRole('radio', { name: settings.format, exact: true }).check();
  if (settings.format !== 'PNG') await page.getByLabel('Quality', { exact: true }).fill(String(settings.quality));
  const compression = page.getByRole('switch', { name: /Optimised compression/ });
  if ((await compression.isChecked()) !== settings.compression) await compression.click();
  if (settings.preset) await page.getByRole('button', { name: settings.preset }).click();
  if (settings.smartLevel !== undefined) {
    await page.getByRole('switch', { name: /Smart compression/ }).check();
    await page.getByLabel('Compression level', { exact: true }).fill(String(settings.smartLevel));
  }
  if (settings.targetKb) {
    await page.getByRole('switch', { name: /Target file size/ }).check();
    await page.getByLabel('Target size (KB)').fill(String(settings.targetKb));
  }
  await page.getByLabel('Email address').fill('bench@example.com');
  const stagedBytes = folder ? await stageFolderForDialog(page, folder, paths) : 0;
  const from = await page.evaluate(() => performance.now());
  if (folder) await page.getByRole('button', { name: 'Add a folder' }).click();
  else await page.getByTestId('file-input').setInputFiles(paths);
  // Intake is over once every file is listed and every card in the page has its preview (the app makes previews for
  // the cards on screen or near it only: a long grid has only those in the page). The page's clock when each was
  // first seen, within the polling's tenth of a second.
  const over = await page.waitForFunction(
    (n) => {
      const seen = window as unknown as { __listedAt?: number };
      if (document.querySelector('[data-testid="selection-summary"]')?.textContent?.startsWith(`${n} valid image`) !== true) return false;
      seen.__listedAt ??= performance.now();
      const cards = [...document.querySelectorAll('[data-testid="file-card"]')];
      return cards.length > 0 && cards.every((card) => card.querySelector('img')) ? { listed: seen.__listedAt, to: performance.now() } : false;
    },
    paths.length,
    { timeout: 600_000, polling: 100 },
  );
  return { from, ...((await over.jsonValue()) as { listed: number; to: number }), stagedBytes };
}

export function convertButton(page: Page) {
  return page.getByRole('button', { name: /^Convert \d+ image/ });
}

export const centre = ({ x, y, width, height }: { x: number; y: number; width: number; height: number }) => ({ x: x + width / 2, y: y + height / 2 });

/**
 * Resolves once every job has completed or failed: the action bar said the run finished (app-instrument.ts). A
 * property read, not a DOM query: on a throttled page the polling must not be work of its own.
 */
export function allJobsSettled(page: Page, count: number): Promise<unknown> {
  // Half an hour, or ten seconds a photo for a longer batch (the scale scenario's thousand).
  return page.waitForFunction((n) => (window as unknown as { __bench: { settled: number } }).__bench.settled >= n, count, { timeout: Math.max(1_800_000, count * 10_000), polling: 250 });
}

/** A phone: a 390 × 844 touch screen, the page's CPU `slowdown` times slower (DevTools' throttling), taps during the batch. */
export interface PhoneOptions {
  slowdown: number;
}

/** Taps with `tap` every 600 ms until `until` settles; a tap that fails (the control moved) is skipped. */
export async function tapUntil(tap: () => Promise<unknown>, until: Promise<unknown>): Promise<void> {
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    await Promise.race([tap().catch(() => undefined), until]);
    await new Promise((resolve) => setTimeout(resolve, TAP_EVERY_MS));
  }
}

/** Taps on the idle page before a batch: four, so that "Rotate right" turns the image full circle and changes nothing. */
export const IDLE_TAPS = 4;

/** A quiet second after throttling before the idle page's taps: the throttle takes hold, and start-up work ends. */
const QUIET_MS = 1000;

/**
 * Taps with `tap` IDLE_TAPS times, TAP_EVERY_MS apart, on the throttled page before its batch: what the same tap
 * costs with no batch running. Returns the page's clock before the first tap and after the last.
 */
export async function tapIdlePage(page: Page, tap: () => Promise<unknown>): Promise<[number, number]> {
  await page.waitForTimeout(QUIET_MS);
  return tapRepeatedly(page, tap, IDLE_TAPS);
}

/** Taps with `tap` `times` times, TAP_EVERY_MS apart; returns the page's clock before the first tap and after the last. */
async function tapRepeatedly(page: Page, tap: () => Promise<unknown>, times: number): Promise<[number, number]> {
  const from = await page.evaluate(() => performance.now());
  for (let i = 0; i < times; i++) {
    await tap();
    await page.waitForTimeout(TAP_EVERY_MS);
  }
  return [from, await page.evaluate(() => performance.now())];
}

/** Taps with one worker busy: twice round, so that "Rotate right" leaves the rotation as it was. */
const ONE_WORKER_BUSY_TAPS = 2 * IDLE_TAPS;

/**
 * Taps with `tap` on the idle page while one worker of the page's own runs a loop: the CPU one conversion takes,
 * in the same renderer, with none of a batch's work on the page's thread. On a machine with few cores a tap then
 * waits for a core as well as for the page, and this says how long, so that the batch's taps can be read against
 * what the machine allows. Returns the taps' window on the page's clock.
 */
export async function tapWithOneWorkerBusy(page: Page, tap: () => Promise<unknown>): Promise<[number, number]> {
  await page.evaluate(() => {
    // Busy in slices of 20 ms with a message between them, not one endless loop: Chromium ends a worker that is
    // running script only 2 s after terminate() (it first asks the worker's event loop, then forces it), and an
    // endless loop went on spinning through the first seconds of the batch after it.
    const slices = 'const next = new MessageChannel(); let x = 0; next.port1.onmessage = () => { const end = performance.now() + 20; while (performance.now() < end) x = (x * 31 + 7) | 0; next.port2.postMessage(0); }; next.port2.postMessage(0);';
    const loop = URL.createObjectURL(new Blob([slices], { type: 'text/javascript' }));
    (window as unknown as { __busyWorker: Worker }).__busyWorker = new Worker(loop);
    URL.revokeObjectURL(loop);
  });
  // The worker's start (a thread, a script) is not the tap's to wait for.
  await page.waitForTimeout(TAP_EVERY_MS);
  const taps = await tapRepeatedly(page, tap, ONE_WORKER_BUSY_TAPS);
  await page.evaluate(() => (window as unknown as { __busyWorker: Worker }).__busyWorker.terminate());
  return taps;
}

/** Where the phone's taps before Convert fell, on the page's clock. */
export interface PhoneTapWindows {
  idle: [number, number];
  oneWorkerBusy: [number, number];
}

/**
 * The bench's phone batch on a page whose files and settings are ready: Convert and "Rotate right" found before the
 * CPU is throttled; the idle page's taps, alone and then with one worker busy; then Convert with "Rotate right"
 * tapped every 600 ms until every job has settled. `beforeConvert` runs just before the Convert tap (the bench
 * starts its memory sampling there).
 */
export async function convertOnPhone(page: Page, count: number, phone: PhoneOptions, beforeConvert: () => void = () => {}): Promise<PhoneTapWindows> {
  const rotate = await tapPoint(page.getByRole('button', { name: 'Rotate right' }));
  // Convert is pressed at a point found beforehand: a locator's click runs accessibility queries over the whole
  // page first (with 200 file cards, 280 ms of Playwright's own script at the moment being measured).
  const convertAt = centre((await convertButton(page).boundingBox())!);
  await throttle(page, phone);
  const tapRotate = () => page.touchscreen.tap(rotate.x, rotate.y);
  const idle = await tapIdlePage(page, tapRotate);
  const oneWorkerBusy = await tapWithOneWorkerBusy(page, tapRotate);
  // A quiet second, as before the idle taps: the worker's end is not the batch's.
  await page.waitForTimeout(QUIET_MS);
  beforeConvert();
  await page.touchscreen.tap(convertAt.x, convertAt.y);
  // "Rotate right" is a real setting change (the plan and the panel re-render) while the batch runs.
  await tapUntil(tapRotate, allJobsSettled(page, count));
  return { idle, oneWorkerBusy };
}

/** A context's screen as a phone's, or as this machine's desktop. */
const contextOptions = (phone?: PhoneOptions) => ({
  acceptDownloads: true,
  serviceWorkers: 'block' as const,
  ...(phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } }),
});

/** An incognito context in `browser` (for a trace, which needs the browser): its storage lives in the browser's memory. */
export async function openContext(browser: Browser, phone?: PhoneOptions) {
  return browser.newContext(contextOptions(phone));
}

/**
 * A page in a browser with a profile of its own on disk, as a visitor's browser has: what a page keeps on the device
 * goes to disk. In an incognito context Chromium keeps the origin's storage in the browser process's memory, and the
 * batch the app keeps on the device counted as memory growing with the batch.
 */
export async function openPage(phone?: PhoneOptions): Promise<{ page: Page; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'pixel-converter-bench-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, args: chromiumArgs, ...contextOptions(phone) });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The page's CPU `phone.slowdown` times slower than this machine's, at the DevTools rate that does it (slowPageCpu). */
export async function throttle(page: Page, phone?: PhoneOptions): Promise<void> {
  if (!phone || phone.slowdown <= 1) return;
  const { rate, slowdownMeasured } = await slowPageCpu(page, phone.slowdown);
  console.error(`CPU ${phone.slowdown}× slower: DevTools' rate ${rate.toFixed(2)} (a compute loop ${slowdownMeasured.toFixed(2)}× slower)`);
}

