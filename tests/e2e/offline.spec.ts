import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { answerWithoutIsolationHeaders } from '../unisolatedHost.ts';
import { chooseFormat, openConverter, pickFiles, watchCspViolations } from './helpers.ts';
import { convertAll, downloadJob, magicFormat } from './convert-helpers.ts';

test.use({ serviceWorkers: 'allow' });

/** The workers the threaded AVIF encoder started from its own script (its threads), in the conversion workers. */
const threadedAvifWorkers = (page: Page) => page.workers().filter((worker) => /avif_enc_mt\.worker/.test(worker.url())).length;

/**
 * Once the service worker is installed (everything precached) and controls the page, reloads it offline: the page,
 * its scripts and the codecs can only come from the service worker, which isolates what it serves.
 */
async function reloadOfflineFromServiceWorker(page: Page, context: BrowserContext): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Add Images')).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
}

/**
 * The PNG fixture to AVIF, downloaded and checked. Converted at once, as the estimate's sample may be running: a job
 * that starts beside it is still alone (the sample gives way), so it encodes on every core where it can (what this
 * file's threads test tells apart).
 */
async function convertPhotoToAvif(page: Page): Promise<void> {
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'AVIF');
  await convertAll(page, 1);
  expect(magicFormat(await downloadJob(page, 'photo.avif'))).toBe('avif');
}

test('after the first visit the app loads and converts offline (shell and codecs precached), under the Content-Security-Policy with no violation', async ({ page, context }) => {
  const violations = await watchCspViolations(page);
  await openConverter(page);
  await reloadOfflineFromServiceWorker(page, context);
  await convertPhotoToAvif(page);
  await page.goto('/somewhere/else');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('on a host that sends no isolation headers, the first visit converts unisolated and from the second the service worker isolates the page: AVIF then encodes on threads', async ({ page, context }) => {
  // The host as one that cannot set headers: every response from the network loses COOP and COEP.
  await context.route('**/*', answerWithoutIsolationHeaders);
  await openConverter(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  await convertPhotoToAvif(page);
  expect(threadedAvifWorkers(page)).toBe(0);
  // The batch outlives the reload; the second visit converts afresh.
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByTestId('job')).toHaveCount(0);

  await reloadOfflineFromServiceWorker(page, context);
  await convertPhotoToAvif(page);
  // The threaded build ran: only it starts workers from its own script, and only it needs isolation.
  expect(threadedAvifWorkers(page)).toBeGreaterThan(0);
});
