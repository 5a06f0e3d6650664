import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Download, type Page } from '@playwright/test';
import { FORGET_KEPT_BATCH } from '../keptBatch.ts';

export const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '.generated');

/**
 * For a test that times the page's own work (its tasks, its frames, a bar's pace) or reads what the page decides from
 * its speed (how many jobs run at once): it runs with no other test beside it. The rest run two at a time
 * (playwright.config.ts), each waiting on what its page says.
 */
export const ALONE = { lock: '-exclusive-' };

/**
 * axe-core for a page of this app, which has no frames: `axe.run` in the page itself (legacy mode). AxeBuilder's
 * default merges each frame's results in a blank page it opens for every analysis, a page start of about 2 s here
 * against 0.3 s for the analysis (docs/testing.md).
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true);
}

export function fixture(name: string): string {
  return join(FIXTURE_DIR, name);
}

/**
 * Holds the page's requests for `url` (a glob) until the returned function is called: the script that makes the page
 * alive, a chunk loaded on demand, so a test can act in the moment before it runs.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Holds the HEIC decoder's download (libheif, which Chromium decodes HEIC with): a HEIC job stays unfinished, its source
 * kept, while the others convert. The returned function lets the page go on without the hold (for a reload: the held
 * request goes with the old page, and the next one's decoder loads).
 */
export async function holdHeicDecoder(page: Page): Promise<() => Promise<void>> {
  await holdRequests(page, '**/libheif*.wasm');
  return () => page.unrouteAll({ behavior: 'ignoreErrors' });
}

/** Opens the app and waits until it is alive: the page is painted from index.html before its script runs. */
export async function openConverter(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await expect(page.getByText('Add Images')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-alive', '');
}

/**
 * Opens the app as on a first visit: what earlier pages of the test kept on the device (the app keeps its batch through
 * reloads) is deleted first, from a page of the origin that does not run the converter.
 */
export async function openFreshConverter(page: Page): Promise<void> {
  await page.goto('/no-such-page');
  await page.evaluate(`(async () => { ${FORGET_KEPT_BATCH} })()`);
  await openConverter(page);
}

/** Adds files through the real file input, as the picker does. */
export async function pickFiles(page: Page, names: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(names.map(fixture));
}

/** Dispatches a real drop event carrying the given files (name, type, bytes) on the drop zone. */
export async function dropFiles(page: Page, files: { name: string; type: string; bytes: Buffer }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, type: f.type, bytes: [...f.bytes] }));
  await page.getByTestId('drop-zone').evaluate((zone, items) => {
    const transfer = new DataTransfer();
    for (const item of items) transfer.items.add(new File([new Uint8Array(item.bytes)], item.name, { type: item.type }));
    zone.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: transfer }));
    zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, payload);
}

export function fixtureBytes(name: string): Buffer {
  return readFileSync(fixture(name));
}

export function fileCard(page: Page, name: string) {
  return page.getByTestId('file-card').filter({ hasText: name });
}

export async function enterEmail(page: Page, email = 'ada@example.com'): Promise<void> {
  await page.getByLabel('Email address').fill(email);
}

/** What a job's card shows of its output: its look's score and Smart quality (null where not shown) and its encodes. */
export interface JobFigures {
  score: number | null;
  smartQuality: number | null;
  encodes: number;
}

/** Each job's figures (JobFigures) by its file's name. */
export async function jobFigures(page: Page): Promise<Map<string, JobFigures>> {
  const jobs = await page.getByTestId('job').evaluateAll((elements) =>
    elements.map((job) => {
      const look = job.querySelector('[data-testid="look"]');
      const [score, quality] = [look?.getAttribute('data-score'), look?.getAttribute('data-smart-quality')];
      const figures = { score: score ? Number(score) : null, smartQuality: quality ? Number(quality) : null, encodes: Number((job as HTMLElement).dataset.encodes ?? 0) };
      return [job.querySelector('.job__name')?.getAttribute('title') ?? '', figures] as const;
    }),
  );
  return new Map(jobs);
}

export function convertButton(page: Page) {
  return page.getByRole('button', { name: /^(Convert \d+ images?( again with new settings)?|Converting\.\.\.)$/ });
}

export async function chooseFormat(page: Page, label: 'JPG' | 'PNG' | 'WebP' | 'AVIF' | 'JPEG XL'): Promise<void> {
  await page.getByRole('radio', { name: label, exact: true }).check();
}

export async function saveDownload(download: Download): Promise<Buffer> {
  const path = await download.path();
  return readFileSync(path);
}

/**
 * Every Content-Security-Policy violation the page reports: `securitypolicyviolation` events in the page, and the
 * console's "Refused to…" lines, which also carry those of its workers (a worker's event is not the page's).
 */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} blocked ${event.blockedURI}`));
  });
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) fromConsole.push(message.text());
  });
  return async () => [...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])), ...fromConsole];
}
