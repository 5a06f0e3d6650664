import { expect, test } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures';
import { chooseFormat, openConverter, pickFiles, watchCspViolations } from './helpers';
import { convertAll, downloadJob, magicFormat } from './convert-helpers';

test.use({ serviceWorkers: 'allow' });

test('after the first visit the app loads and converts offline (shell and codecs precached), under the Content-Security-Policy with no violation', async ({ page, context }) => {
  const violations = await watchCspViolations(page);
  await openConverter(page);
  // Installed (everything precached) and in control of this very page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Add Images')).toBeVisible();
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'AVIF');
  await convertAll(page, 1);
  expect(magicFormat(await downloadJob(page, 'photo.avif'))).toBe('avif');
  await page.goto('/somewhere/else');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('the threaded AVIF encoder, which never loads without cross-origin isolation, is not precached', async ({ page }) => {
  await openConverter(page);
  const sw = await (await page.request.get('/sw.js')).text();
  expect(sw).toContain('avif_enc-');
  expect(sw).not.toContain('avif_enc_mt');
});
