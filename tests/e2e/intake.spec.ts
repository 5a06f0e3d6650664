import type { FileChooser } from '@playwright/test';
import { expect, test } from './shared-page.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { FIXTURES, iphonePortraitStored } from '../fixtures/make-fixtures.ts';
import { meanDifference, thumbnailOf } from '../fixtures/oriented.ts';
import { dropFiles, fileCard, fixtureBytes, holdRequests, openConverter, pickFiles } from './helpers.ts';

test('the drop zone shows "Add Images", "Tap here or drag & drop images" and "Max 25 MB • JPG, PNG, WebP, AVIF, JPEG XL, HEIC, TIFF, GIF, BMP"', async ({ page }) => {
  await expect(page.getByText('Add Images')).toBeVisible();
  await expect(page.getByText('Tap here or drag & drop images')).toBeVisible();
  await expect(page.getByText('Max 25 MB • JPG, PNG, WebP, AVIF, JPEG XL, HEIC, TIFF, GIF, BMP')).toBeVisible();
  await expect(page.getByText('Upload images to start converting')).toBeVisible();
  const input = page.getByTestId('file-input');
  await expect(input).toHaveAttribute('accept', 'image/*');
  await expect(input).toHaveAttribute('multiple', '');
});

test('while a file is dragged over: "Drop images here" / "Release to upload"; leaving restores the idle texts', async ({ page }) => {
  const zone = page.getByTestId('drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer: await page.evaluateHandle(() => new DataTransfer()) });
  await expect(page.getByText('Drop images here')).toBeVisible();
  await expect(page.getByText('Release to upload')).toBeVisible();
  await zone.dispatchEvent('dragleave', { dataTransfer: await page.evaluateHandle(() => new DataTransfer()) });
  await expect(page.getByText('Add Images')).toBeVisible();
  await expect(page.getByText('Drop images here')).toHaveCount(0);
});

test('picked images become cards with name, size, extension, thumbnail and "Ready to convert"; toast "Added 2 images"', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.png]);
  await expect(page.getByText('Added 2 images')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Selected Files (2)' })).toBeVisible();
  const card = fileCard(page, FIXTURES.jpeg);
  await expect(card.getByText('Ready to convert')).toBeVisible();
  await expect(card.getByText('JPG', { exact: true })).toBeVisible();
  const size = fixtureBytes(FIXTURES.jpeg).length;
  await expect(card.getByText(`${(size / 1024).toFixed(2)} KB`)).toBeVisible();
  // The thumbnail is a small preview made in a worker, not the full image.
  const thumbnail = card.locator('img');
  await expect(thumbnail).toHaveAttribute('src', /^blob:/);
  const natural = await thumbnail.evaluate((img: HTMLImageElement) => img.decode().then(() => [img.naturalWidth, img.naturalHeight]));
  expect(Math.max(...natural)).toBeLessThanOrEqual(240);
  await expect(page.getByTestId('selection-summary')).toHaveText(/2 valid images • \d+\.\d MB/);
  await expect(page.getByRole('button', { name: 'Convert 2 images' })).toBeVisible();
});

test("an iPhone HEIC's preview is the thumbnail it carries, turned as the photo is: portrait, and the thumbnail's picture, not a decode of the photo", async ({ page }) => {
  await pickFiles(page, [FIXTURES.iphoneHeic]);
  await expect(page.getByTestId('selection-summary')).toHaveAttribute('data-previews', '1');
  const preview = Buffer.from(
    await fileCard(page, FIXTURES.iphoneHeic)
      .locator('img')
      .evaluate(async (img: HTMLImageElement) => {
        // Drawn as it is shown (the page's policy lets no script fetch a blob: URL), and read back as PNG.
        await img.decode();
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [img.naturalWidth, img.naturalHeight];
        canvas.getContext('2d')!.drawImage(img, 0, 0);
        return canvas.toDataURL('image/png').split(',')[1]!;
      }),
    'base64',
  );
  const { width, height } = await sharp(preview).metadata();
  expect(height).toBeGreaterThan(width!);
  // The thumbnail's picture (the photo's negative) a quarter turn clockwise, as irot 3 shows the photo.
  const thumbnailUpright = await iphonePortraitStored().negate().rotate(90).png().toBuffer();
  const photoUpright = await iphonePortraitStored().rotate(90).png().toBuffer();
  const seen = await thumbnailOf(preview);
  expect(meanDifference(seen, await thumbnailOf(thumbnailUpright))).toBeLessThan(12);
  expect(meanDifference(seen, await thumbnailOf(photoUpright))).toBeGreaterThan(30);
});

test("every card's thumbnail is 4:3 whatever the photo's shape: a tall photo and a wide one make cards of one height", async ({ page }) => {
  const photo = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7' } }).jpeg().toBuffer();
  await page.getByTestId('file-input').setInputFiles([
    { name: 'tall.jpg', mimeType: 'image/jpeg', buffer: await photo(600, 900) },
    { name: 'wide.jpg', mimeType: 'image/jpeg', buffer: await photo(1200, 500) },
  ]);
  await expect(page.getByTestId('selection-summary')).toHaveAttribute('data-previews', '2');
  const boxes = await page.getByTestId('file-card').evaluateAll((cards) =>
    cards.map((card) => {
      const thumb = card.querySelector('.file-card__thumb')!.getBoundingClientRect();
      return { height: card.getBoundingClientRect().height, ratio: thumb.width / thumb.height };
    }),
  );
  expect(boxes).toHaveLength(2);
  for (const { ratio } of boxes) expect(ratio).toBeCloseTo(4 / 3, 1);
  expect(boxes[0]!.height).toBeCloseTo(boxes[1]!.height, 0);
});

test('every bad file shows its exact message; "No valid files added" when none is valid', async ({ page }) => {
  await pickFiles(page, [FIXTURES.textAsPng, FIXTURES.tinyPng, FIXTURES.svg, FIXTURES.tooLarge]);
  await expect(page.getByText('No valid files added')).toBeVisible();
  await expect(page.getByText('4 files had errors.')).toBeVisible();
  await expect(fileCard(page, FIXTURES.textAsPng).getByText('Invalid file format. File may be corrupted or malicious.')).toBeVisible();
  await expect(fileCard(page, FIXTURES.tinyPng).getByText('File too small to be a valid image.')).toBeVisible();
  await expect(fileCard(page, FIXTURES.svg).getByText('Unsupported format. Use JPG, PNG, WebP, AVIF, JPEG XL, HEIC, TIFF, GIF, or BMP.')).toBeVisible();
  await expect(fileCard(page, FIXTURES.tooLarge).getByText('File too large. Maximum 25MB per file.')).toBeVisible();
  await expect(fileCard(page, FIXTURES.svg).getByText('SVG', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Convert 0 images' })).toBeVisible();
});

test('a mixed pick reports "Added 1 image" and how many were skipped', async ({ page }) => {
  await pickFiles(page, [FIXTURES.webp, FIXTURES.svg]);
  await expect(page.getByText('Added 1 image', { exact: true })).toBeVisible();
  await expect(page.getByText('1 file skipped due to errors.')).toBeVisible();
});

test('a dispatched drop adds images and silently ignores files that are not image/*', async ({ page }) => {
  await dropFiles(page, [
    { name: 'dropped.png', type: 'image/png', bytes: fixtureBytes(FIXTURES.png) },
    { name: 'readme.txt', type: 'text/plain', bytes: Buffer.from('hello') },
  ]);
  await expect(page.getByText('Added 1 image', { exact: true })).toBeVisible();
  await expect(fileCard(page, 'dropped.png').getByText('Ready to convert')).toBeVisible();
  await expect(fileCard(page, 'readme.txt')).toHaveCount(0);
  await expect(page.getByText('Add Images')).toBeVisible();
});

test('a pasted image is added', async ({ page }) => {
  const bytes = [...fixtureBytes(FIXTURES.png)];
  await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'pasted.png', { type: 'image/png' }));
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(fileCard(page, 'pasted.png').getByText('Ready to convert')).toBeVisible();
});

test('remove takes a file out of the list; the same file can be picked again', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg]);
  await expect(fileCard(page, FIXTURES.jpeg)).toHaveCount(1);
  await page.getByRole('button', { name: `Remove ${FIXTURES.jpeg}` }).click();
  await expect(fileCard(page, FIXTURES.jpeg)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: /Selected Files/ })).toHaveCount(0);
  await pickFiles(page, [FIXTURES.jpeg]);
  await expect(fileCard(page, FIXTURES.jpeg)).toHaveCount(1);
  await expect(page.getByTestId('file-input')).toHaveValue('');
});

test('the drop zone opens the picker from the keyboard (Enter and Space)', async ({ page }) => {
  const choosers: FileChooser[] = [];
  // Listened for before the zone has the focus: the browser intercepts a picker only once told to, and a key press
  // reaches the page at once (a click waits its turn), so a picker opened before then was never seen.
  page.on('filechooser', (chooser) => choosers.push(chooser));
  await page.getByTestId('drop-zone').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => choosers.length).toBe(1);
  expect(choosers[0]!.isMultiple()).toBe(true);
  // Answered as a visitor closes the picker: one still open holds the next.
  await choosers[0]!.setFiles([]);
  await page.keyboard.press(' ');
  await expect.poll(() => choosers.length).toBe(2);
  await choosers[1]!.setFiles([]);
});

test('a long selection whose grid is still loading shows its first cards, and focus on one stays on it when the grid takes their place', async ({ freshPage: page }) => {
  await openConverter(page);
  // The long grid's code is fetched the first time a selection is that long; until it runs, the first cards stand in.
  const releaseGrid = await holdRequests(page, '**/VirtualFileGrid-*.js');
  const files = Array.from({ length: 80 }, (_, i) => ({ name: `shot-${String(i).padStart(2, '0')}.jpg`, mimeType: 'image/jpeg', buffer: fixtureBytes(FIXTURES.jpeg) }));
  await page.getByTestId('file-input').setInputFiles(files);
  await expect(page.getByRole('heading', { name: 'Selected Files (80)' })).toBeVisible();
  await expect(page.getByTestId('file-card')).toHaveCount(12);
  await page.getByRole('button', { name: 'Remove shot-02.jpg' }).click();
  await expect(page.getByRole('heading', { name: 'Selected Files (79)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove shot-03.jpg' })).toBeFocused();
  const standIn = await page.getByRole('button', { name: 'Remove shot-03.jpg' }).elementHandle();
  releaseGrid();
  // The grid has taken the first cards' place (the button is another element) and the focus is on its card's button.
  await expect.poll(() => standIn!.evaluate((button) => button.isConnected)).toBe(false);
  await expect(page.getByRole('button', { name: 'Remove shot-03.jpg' })).toBeFocused();
  // And the keyboard goes on from there, to the next card.
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /shot-04\.jpg/);
});

test('a long selection keeps the cards near the screen; Remove in it still sends focus to the next card', async ({ page }) => {
  const files = Array.from({ length: 80 }, (_, i) => ({ name: `shot-${String(i).padStart(2, '0')}.jpg`, type: 'image/jpeg', bytes: fixtureBytes(FIXTURES.jpeg) }));
  await page.getByTestId('file-input').setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.type, buffer: f.bytes })));
  await expect(page.getByRole('heading', { name: 'Selected Files (80)' })).toBeVisible();
  await expect(page.getByTestId('selection-summary')).toHaveText(/^80 valid images/);
  // The long grid, not the first cards that stand in while its code loads: its cards have their place in it.
  await expect(page.getByTestId('file-card').first()).toHaveAttribute('data-index', '0');
  const cards = await page.getByTestId('file-card').count();
  expect(cards).toBeGreaterThan(0);
  expect(cards).toBeLessThan(80);
  await page.getByRole('button', { name: 'Remove shot-02.jpg' }).click();
  await expect(page.getByRole('heading', { name: 'Selected Files (79)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove shot-03.jpg' })).toBeFocused();
  // The last card is reachable by scrolling, in its place.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByTestId('file-card').filter({ hasText: 'shot-79.jpg' })).toBeVisible();
});

test('cards not yet near the screen take the height they will have: scrolling down the grid moves nothing, on a desktop or a phone, loose or from a folder', async ({ page }) => {
  // 50 files: a plain grid (the long one places its cards itself), rows of it far below the screen; among the photos,
  // cards whose text wraps (an animation's note, a pages note, a refusal), near the end.
  const names = Array.from({ length: 47 }, (_, i) => `shot-${String(i).padStart(2, '0')}.jpg`);
  const folder = mkdtempSync(join(tmpdir(), 'card-heights-'));
  mkdirSync(join(folder, 'Trip'));
  for (const name of names) writeFileSync(join(folder, 'Trip', name), fixtureBytes(FIXTURES.jpeg));
  for (const [at, fixture] of [[40, FIXTURES.animatedGif], [44, FIXTURES.multiPageTiff], [45, FIXTURES.textAsPng]] as const) {
    const name = `shot-${String(at)}b${fixture.slice(fixture.lastIndexOf('.'))}`;
    writeFileSync(join(folder, 'Trip', name), fixtureBytes(fixture));
    names.push(name);
  }
  try {
    for (const from of ['loose', 'a folder'] as const) {
      if (from === 'loose') await page.getByTestId('file-input').setInputFiles(names.map((name) => join(folder, 'Trip', name)));
      else await page.getByTestId('folder-input').setInputFiles(join(folder, 'Trip'));
      await expect(page.getByTestId('selection-summary')).toHaveText(/^49 valid images .* 1 file with errors/);
      for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
        await page.setViewportSize(viewport);
        // The grid's height at the page's top, before Chromium has rendered its far rows, and once a scroll to its end
        // has (two frames on).
        const heights = await page.evaluate(async () => {
          const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
          const grid = document.querySelector('.file-grid')!;
          window.scrollTo(0, 0);
          await frame();
          await frame();
          const before = grid.getBoundingClientRect().height;
          window.scrollTo(0, grid.getBoundingClientRect().bottom + window.scrollY - window.innerHeight);
          await frame();
          await frame();
          return { before, after: grid.getBoundingClientRect().height };
        });
        expect(heights.after, `${from}, ${viewport.width} × ${viewport.height}`).toBeCloseTo(heights.before, 0);
      }
      await page.getByRole('button', { name: 'Clear all' }).click();
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
