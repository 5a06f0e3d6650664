import { test as base, expect, type Page } from '@playwright/test';
import { openConverter } from './helpers.ts';

/**
 * `test` whose `page` is one converter page for a worker's tests, opened once and brought back before each test to
 * where a visitor starts: no file, no job, the default settings. Its workers and the codecs they compiled stay, where
 * a page a test spent about 1.5 s starting again (the page itself 0.9 s, a first conversion's workers and codecs
 * 0.6–2.4 s more: docs/testing.md). For tests that act as a visitor does within one visit; a test about what a new
 * page or a new profile does (a reload, a first visit, another tab, the device's storage) takes Playwright's own.
 * Playwright starts a new worker, and so a new page, after a failure: what a failed test left is never the next one's.
 */
export const test = base.extend<{ freshPage: Page }, { converterPage: Page }>({
  converterPage: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, acceptDownloads, serviceWorkers } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, acceptDownloads, serviceWorkers, viewport: DEFAULT_VIEWPORT });
      const page = await context.newPage();
      await openConverter(page);
      await use(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ converterPage }, use) => {
    await startOver(converterPage);
    await use(converterPage);
  },
  /** A page of the test's own, in a new profile: for a test about a new page among tests that share one. */
  freshPage: async ({ context }, use) => {
    await use(await context.newPage());
  },
});

/** Playwright's default, which a test may change (a phone's screen) and the next one gets back. */
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

/** No job, no file, no toast, no address, the default settings, nothing focused, at the top of a desktop's page. */
async function startOver(page: Page): Promise<void> {
  const { width, height } = page.viewportSize()!;
  if (width !== DEFAULT_VIEWPORT.width || height !== DEFAULT_VIEWPORT.height) await page.setViewportSize(DEFAULT_VIEWPORT);
  const jobs = page.getByTestId('job');
  if ((await jobs.count()) > 0) await page.getByRole('button', { name: 'Clear finished' }).click();
  // Within seconds, even where a config waits on the page without limit (the corpus): a click that does nothing (the
  // page moving under it: docs/testing.md) fails here, by name, instead of holding the run until the test's limit.
  await expect(jobs, 'the jobs are still listed after "Clear finished"').toHaveCount(0, { timeout: 10_000 });
  if ((await page.getByTestId('file-card').count()) > 0) await page.getByRole('button', { name: 'Clear all' }).click();
  await page.getByRole('button', { name: 'Reset settings' }).click();
  await page.getByLabel('Email address').fill('');
  await expect(page.getByTestId('file-card')).toHaveCount(0);
  await page.evaluate(() => {
    // Every toast still up is dismissed, from the page: a toast sliding in or out is never still enough for a click.
    for (const dismiss of document.querySelectorAll<HTMLButtonElement>('button[aria-label^="Dismiss \\""]')) dismiss.click();
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

export { expect };
