import { statSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { convertButton, enterEmail, fixture, openConverter } from './helpers.ts';
import { downloadAllZip } from './convert-helpers.ts';

/**
 * See before you convert: as soon as there are files and settings, the action bar says what the batch will weigh,
 * from a few files the workers sample; the real total lands within 35% of it.
 */

/** A mixed batch: photos of four formats and sizes, a camera's JPEG, a transparent PNG. */
const MIXED = [FIXTURES.jpeg, FIXTURES.png, FIXTURES.webp, FIXTURES.avif, FIXTURES.largeJpeg, FIXTURES.camera, FIXTURES.transparent, FIXTURES.secondJpeg];

const SCREENS = [
  { name: 'a 390 × 844 phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'a 1280 × 900 desktop', viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
] as const;

for (const screen of SCREENS) {
  test.describe(`on ${screen.name}`, () => {
    test.use({ viewport: screen.viewport, isMobile: screen.isMobile, hasTouch: screen.hasTouch });

    test('the estimate appears before Convert, follows a setting, and the batch lands within 35% of it', async ({ page }) => {
      await openConverter(page);
      await page.getByTestId('file-input').setInputFiles(MIXED.map(fixture));
      const estimate = page.getByTestId('batch-estimate');
      // Before the e-mail is entered, let alone Convert pressed.
      await expect(estimate).toHaveText(/^About [\d.]+ (KB|MB) for 8 images · [−+]\d+%$/);
      // The browser's own room holds the batch.
      await expect(page.getByTestId('storage-shortfall')).toHaveCount(0);
      const webpBytes = Number(await estimate.getAttribute('data-bytes'));

      // A setting change is estimated again: PNG weighs more than WebP.
      await page.getByRole('radio', { name: 'PNG', exact: true }).check();
      await expect.poll(async () => Number((await estimate.getAttribute('data-bytes')) ?? 0)).toBeGreaterThan(webpBytes * 2);
      await page.getByRole('radio', { name: 'WebP', exact: true }).check();
      await expect.poll(async () => Number((await estimate.getAttribute('data-bytes')) ?? 0)).toBe(webpBytes);

      await enterEmail(page);
      await convertButton(page).click();
      // No estimate while the batch runs.
      await expect(estimate).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: 'Finished: 8 of 8 done' })).toBeVisible();
      const total = Object.values(await downloadAllZip(page)).reduce((sum, bytes) => sum + bytes.length, 0);
      expect(Math.abs(total - webpBytes) / total).toBeLessThanOrEqual(0.35);
    });
  });
}

test('a batch the device has no room for is said before Convert, with what happens then, and Convert still converts it', async ({ page }) => {
  // A device nearly full: the browser's own figures, with 100 KB of room left for the page.
  await page.addInitScript(() => {
    const estimate = StorageManager.prototype.estimate;
    StorageManager.prototype.estimate = async function (this: StorageManager) {
      const real = await estimate.call(this);
      return { ...real, quota: (real.usage ?? 0) + 100 * 1024 };
    };
  });
  await openConverter(page);
  await page.getByTestId('file-input').setInputFiles(MIXED.map(fixture));
  const sourceBytes = MIXED.reduce((sum, name) => sum + statSync(fixture(name)).size, 0);
  await expect(page.getByTestId('batch-estimate')).toBeVisible();
  const shortfall = page.getByTestId('storage-shortfall');
  await expect(shortfall).toHaveText(/^This batch needs about [\d.]+ (KB|MB) on this device, and the browser has 100\.00 KB left: what does not fit stays in memory, so download before you leave\.$/);
  // The sources and the outputs the estimate expects.
  const estimated = Number(await page.getByTestId('batch-estimate').getAttribute('data-bytes'));
  expect(Number(await shortfall.getAttribute('data-need-bytes'))).toBe(sourceBytes + estimated);

  await enterEmail(page);
  await convertButton(page).click();
  await expect(shortfall).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 8 of 8 done' })).toBeVisible();
  expect(Object.keys(await downloadAllZip(page))).toHaveLength(8);
});
