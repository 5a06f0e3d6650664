import { expect, test, type Page } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures';
import { chooseFormat, openConverter, pickFiles, watchCspViolations } from './helpers';
import { convertAll, downloadJob, magicFormat } from './convert-helpers';

test.use({ serviceWorkers: 'allow' });

/** The workers the threaded AVIF encoder started from its own script (its threads), in the conversion workers. */
const threadedAvifWorkers = (page: Page) => page.workers().filter((worker) => /avif_enc_mt\.worker/.test(worker.url())).length;

test('after the first visit the app loads and converts offline (shell and codecs precached), under the Content-Security-Policy with no violation', async ({ page, context }) => {
  const violations = await watchCspViolations(page);
  await openConverter(page);
  // Installed (everything precached) and in control of this very page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Add Images')).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'AVIF');
  await convertAll(page, 1);
  expect(magicFormat(await downloadJob(page, 'photo.avif'))).toBe('avif');
  await page.goto('/somewhere/else');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('on a host that sends no isolation headers, the first visit converts unisolated and from the second the service worker isolates the page: AVIF then encodes on threads', async ({ page, context }) => {
  // The host as one that cannot set headers: every response from the network loses COOP and COEP.
  await context.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['cross-origin-opener-policy'];
    delete headers['cross-origin-embedder-policy'];
    await route.fulfill({ response, headers });
  });
  await openConverter(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'AVIF');
  await convertAll(page, 1);
  expect(magicFormat(await downloadJob(page, 'photo.avif'))).toBe('avif');
  expect(threadedAvifWorkers(page)).toBe(0);
  // The batch outlives the reload; the second visit converts afresh.
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByTestId('job')).toHaveCount(0);

  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // Offline, so the page, its scripts and the codecs can only come from the service worker.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Add Images')).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'AVIF');
  await convertAll(page, 1);
  expect(magicFormat(await downloadJob(page, 'photo.avif'))).toBe('avif');
  // The threaded build ran: only it starts workers from its own script, and only it needs isolation.
  expect(threadedAvifWorkers(page)).toBeGreaterThan(0);
});
