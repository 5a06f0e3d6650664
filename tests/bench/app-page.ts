import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../playwright.config';

const ROOT = join(import.meta.dirname, '..', '..');
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
 * `vite preview` of the production build (built beforehand), once it answers; kill() the result to stop it. Vite
 * runs as the child itself: through npx, kill() stopped npx and left the server holding the port and the bench's
 * event loop, so a finished bench never exited.
 */
export async function startAppServer() {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(process.execPath, [vite, 'preview', '--port', String(APP_PORT), '--strictPort'], { cwd: ROOT, stdio: 'ignore' });
  await waitForHttp(APP_URL);
  return child;
}

/** The same Chromium and flags as the end-to-end tests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

export interface AppSettings {
  format: 'JPG' | 'PNG' | 'WebP' | 'AVIF';
  quality: number;
  compression: boolean;
  targetKb?: number;
  /** A quick preset's button label, e.g. "Web 1920 wide". */
  preset?: string;
}

/** A quiet moment after loading, so the idle page's memory is read once start-up garbage is gone. */
const SETTLE_MS = 2000;

/** Opens the app and lets it settle: what the page holds now is its idle memory. */
export async function openIdleApp(page: Page, deviceMemoryGb?: number): Promise<void> {
  // The UI thread reads navigator.deviceMemory for the pixel limit and the pool's budget (workers are handed both).
  if (deviceMemoryGb !== undefined) await page.addInitScript(`Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => ${deviceMemoryGb} })`);
  await page.goto(APP_URL);
  await page.waitForTimeout(SETTLE_MS);
}

/** Settings, e-mail and files on the app's open page, waiting until every preview is made: what follows is the batch. */
export async function prepareBatch(page: Page, paths: string[], settings: AppSettings): Promise<void> {
  await page.getByRole('radio', { name: settings.format, exact: true }).check();
  if (settings.format !== 'PNG') await page.getByLabel('Quality', { exact: true }).fill(String(settings.quality));
  const compression = page.getByRole('switch', { name: /Optimised compression/ });
  if ((await compression.isChecked()) !== settings.compression) await compression.click();
  if (settings.preset) await page.getByRole('button', { name: settings.preset }).click();
  if (settings.targetKb) {
    await page.getByRole('switch', { name: /Target file size/ }).check();
    await page.getByLabel('Target size (KB)').fill(String(settings.targetKb));
  }
  await page.getByLabel('Email address').fill('bench@example.com');
  await page.getByTestId('file-input').setInputFiles(paths);
  await page.waitForFunction((n) => document.querySelectorAll('.file-card img[src^="blob:"]').length === n, paths.length, { timeout: 600_000, polling: 250 });
}

export function convertButton(page: Page) {
  return page.getByRole('button', { name: /^Convert \d+ image/ });
}

/** Resolves once every job has completed or failed. */
export function allJobsSettled(page: Page, count: number): Promise<unknown> {
  return page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="job"][data-status="completed"], [data-testid="job"][data-status="error"]').length === n,
    count,
    { timeout: 1_800_000, polling: 250 },
  );
}
