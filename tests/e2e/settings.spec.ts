import type { Page } from '@playwright/test';
import { expect, test } from './shared-page.ts';
import { chooseFormat, openConverter } from './helpers.ts';

async function expectDefaults(page: Page): Promise<void> {
  await expect(page.getByRole('radio', { name: 'WebP' })).toBeChecked();
  await expect(page.getByLabel('Quality', { exact: true })).toHaveValue('80');
  await expect(page.getByRole('switch', { name: /Strip metadata/ })).toBeChecked();
  await expect(page.getByRole('switch', { name: /Optimised compression/ })).toBeChecked();
  await expect(page.getByRole('switch', { name: /Smart compression/ })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: /Target file size/ })).not.toBeChecked();
  await expect(page.getByLabel('Aspect ratio')).toHaveValue('original');
  await expect(page.getByLabel('Width (px)')).toHaveValue('');
  await expect(page.getByLabel('Height (px)')).toHaveValue('');
  for (const name of ['Brightness', 'Contrast', 'Saturation']) await expect(page.getByLabel(name, { exact: true })).toHaveValue('0');
}

// A first visit's, in a page of its own; and "Reset settings" brings them back, as it does for the other tests here,
// which share a page (shared-page.ts).
test('defaults: WebP, quality 80, strip metadata and optimised compression on, no resize; "Reset settings" brings them back', async ({ freshPage: page }) => {
  await openConverter(page);
  await expectDefaults(page);
  await chooseFormat(page, 'JPG');
  await page.getByLabel('Quality', { exact: true }).fill('50');
  await page.getByRole('switch', { name: /Strip metadata/ }).uncheck();
  await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
  await page.getByRole('switch', { name: /Target file size/ }).check();
  await page.getByRole('button', { name: 'Social 1080×1080' }).click();
  await page.getByLabel('Brightness', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Reset settings' }).click();
  await expectDefaults(page);
});

test('slider ranges: quality 10–100 step 5; adjustments −50 to 50 step 5; compression level 50–95 step 5', async ({ page }) => {
  const quality = page.getByLabel('Quality', { exact: true });
  await expect(quality).toHaveAttribute('min', '10');
  await expect(quality).toHaveAttribute('max', '100');
  await expect(quality).toHaveAttribute('step', '5');
  const brightness = page.getByLabel('Brightness', { exact: true });
  await expect(brightness).toHaveAttribute('min', '-50');
  await expect(brightness).toHaveAttribute('max', '50');
  await expect(brightness).toHaveAttribute('step', '5');
  await page.getByRole('switch', { name: /Smart compression/ }).check();
  const level = page.getByLabel('Compression level', { exact: true });
  await expect(level).toHaveValue('85');
  await expect(level).toHaveAttribute('min', '50');
  await expect(level).toHaveAttribute('max', '95');
});

test('quality is hidden for PNG; background colour shows only for JPG', async ({ page }) => {
  await expect(page.getByLabel('Background colour')).toHaveCount(0);
  await chooseFormat(page, 'PNG');
  await expect(page.getByLabel('Quality', { exact: true })).toHaveCount(0);
  await chooseFormat(page, 'JPG');
  await expect(page.getByLabel('Quality', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Background colour')).toHaveValue('#ffffff');
  await chooseFormat(page, 'AVIF');
  await expect(page.getByLabel('Background colour')).toHaveCount(0);
  await expect(page.getByLabel('Quality', { exact: true })).toBeVisible();
});

test('the target size input shows only when target size is enabled', async ({ page }) => {
  await expect(page.getByLabel('Target size (KB)')).toHaveCount(0);
  await page.getByRole('switch', { name: /Target file size/ }).check();
  await expect(page.getByLabel('Target size (KB)')).toBeVisible();
  await page.getByLabel('Target size (KB)').fill('150');
  await expect(page.getByLabel('Target size (KB)')).toHaveValue('150');
});

test('presets, ratios and custom dimensions fill width and height as the spec says', async ({ page }) => {
  const width = page.getByLabel('Width (px)');
  const height = page.getByLabel('Height (px)');
  const ratio = page.getByLabel('Aspect ratio');
  await page.getByRole('button', { name: 'Social 1080×1080' }).click();
  await expect(width).toHaveValue('1080');
  await expect(height).toHaveValue('1080');
  await expect(ratio).toHaveValue('1:1');
  await page.getByRole('button', { name: 'Web 1920 wide' }).click();
  await expect(width).toHaveValue('1920');
  await expect(height).toHaveValue('');
  await expect(ratio).toHaveValue('16:9');
  await page.getByRole('button', { name: 'Tiny 512 wide' }).click();
  await expect(width).toHaveValue('512');
  await expect(ratio).toHaveValue('original');
  await ratio.selectOption('4:3');
  await expect(width).toHaveValue('512');
  await expect(height).toHaveValue('384');
  await ratio.selectOption('original');
  await expect(width).toHaveValue('');
  await expect(height).toHaveValue('');
  await ratio.selectOption('9:16');
  await expect(width).toHaveValue('1080');
  await expect(height).toHaveValue('1920');
  await width.fill('700');
  await expect(ratio).toHaveValue('custom');
  await page.getByRole('button', { name: 'Original size' }).click();
  await expect(width).toHaveValue('');
});

test('rotation steps by 90 degrees and wraps', async ({ page }) => {
  const value = page.getByTestId('rotation-value');
  await expect(value).toHaveText('0°');
  await page.getByRole('button', { name: /Rotate left/ }).click();
  await expect(value).toHaveText('270°');
  await page.getByRole('button', { name: /Rotate right/ }).click();
  await page.getByRole('button', { name: /Rotate right/ }).click();
  await expect(value).toHaveText('90°');
});
