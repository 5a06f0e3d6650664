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
