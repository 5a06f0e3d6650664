import { expect, test, type Page } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { axe, chooseFormat, convertButton, enterEmail, fixture, openConverter } from './helpers.ts';

/**
 * See before you download: a finished job's Compare shows the original and the output of the same image, a divider
 * between them moved by the keyboard, zoom to 1:1; Escape closes it and the focus goes back.
 */

const SCREENS = [
  { name: 'a 390 × 844 phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'a 1280 × 900 desktop', viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
] as const;

/** The dialog's view says which sides it shows, once their pictures have come from the worker and been placed. */
const bothShown = (page: Page) => expect(page.getByTestId('compare-view')).toHaveAttribute('data-drawn', 'original output');

for (const screen of SCREENS) {
  test.describe(`on ${screen.name}`, () => {
    test.use({ viewport: screen.viewport, isMobile: screen.isMobile, hasTouch: screen.hasTouch });

    test('Compare opens both images, the divider moves with the keyboard, axe finds nothing, Escape closes and focus returns', async ({ page }) => {
      await openConverter(page);
      await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.largeJpeg)]);
      await chooseFormat(page, 'WebP');
      await enterEmail(page);
      await convertButton(page).click();
      const compare = page.getByRole('button', { name: 'Compare large.webp' });
      await compare.click();

      const dialog = page.getByRole('dialog', { name: 'Compare large.jpg' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId('compare-original')).toHaveText(/Original 1200 × 900 · [\d.]+ KB/);
      await expect(dialog.getByTestId('compare-output')).toHaveText(/WebP 1200 × 900 · [\d.]+ KB/);
      await bothShown(page);
      await expect(dialog.getByRole('img', { name: 'large.jpg, original' })).toBeVisible();
      await expect(dialog.getByRole('img', { name: 'large.jpg, WebP' })).toBeVisible();

      const divider = dialog.getByRole('slider', { name: 'Divider' });
      await expect(divider).toHaveAttribute('aria-valuetext', '50%: original on the left, WebP on the right');
      await divider.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect(divider).toHaveValue('52');
      await expect(divider).toHaveAttribute('aria-valuetext', '52%: original on the left, WebP on the right');
      await page.keyboard.press('Home');
      await expect(divider).toHaveValue('0');

      // 1:1 is one output pixel per device pixel: 100%.
      const zoom = dialog.getByTestId('zoom-level');
      await expect(zoom).toHaveText('Fit');
      await dialog.getByRole('button', { name: '1:1' }).click();
      await expect(zoom).toHaveText('100%');
      await dialog.getByRole('button', { name: 'Zoom out' }).click();
      await expect(zoom).toHaveText(/^(Fit|50%)$/);
      await dialog.getByRole('button', { name: 'Fit' }).click();
      await expect(zoom).toHaveText('Fit');

      const { violations } = await axe(page).include('dialog').analyze();
      expect(violations).toEqual([]);

      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(compare).toBeFocused();
    });
  });
}

test('Preview shows what the current settings make of a selected file before anything is converted; closing it leaves no job', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openConverter(page);
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.largeJpeg)]);
  await chooseFormat(page, 'AVIF');
  await page.getByRole('button', { name: 'Social 1080×1080' }).click();
  const preview = page.getByRole('button', { name: 'Preview large.jpg with these settings' });
  await preview.click();
  const dialog = page.getByRole('dialog', { name: 'Preview large.jpg' });
  await expect(dialog).toBeVisible();
  // The original as the output frames it (a square from the middle), beside the AVIF the settings make of it.
  await expect(dialog.getByTestId('compare-original')).toHaveText(/Original 1200 × 900 · [\d.]+ KB/);
  await expect(dialog.getByTestId('compare-output')).toHaveText(/AVIF 1080 × 1080 · [\d.]+ KB/);
  await bothShown(page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(preview).toBeFocused();
  await expect(page.getByTestId('job')).toHaveCount(0);
  await expect(convertButton(page)).toHaveText('Convert 1 image');
});
