import { expect, test, type Page } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { convertAll, downloadAllZip, magicFormat } from './convert-helpers.ts';
import { chooseFormat, convertButton, enterEmail, openConverter, pickFiles } from './helpers.ts';

/**
 * Taking a batch elsewhere than a zip. The browser's own share sheet and folder dialog cannot be driven headless, so
 * each is replaced by a recorder with the same interface (the browser's API, not the app's code).
 */

interface Recorded {
  name: string;
  type: string;
  size: number;
  head: number[];
}

/** `maxBytes`: the largest file the browser will share (browsers cap a share's size). */
async function recordShares(page: Page, canShare: boolean, maxBytes = Number.MAX_SAFE_INTEGER) {
  await page.addInitScript(([able, largest]) => {
    const shares: { name: string; type: string; size: number }[][] = [];
    (window as unknown as { __shares: typeof shares }).__shares = shares;
    Object.defineProperty(navigator, 'canShare', {
      configurable: true,
      value: (data?: { files?: File[] }) => able && Boolean(data?.files?.length) && data!.files!.every((file) => file.size <= largest),
    });
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (data: { files: File[] }) => void shares.push(data.files.map((f) => ({ name: f.name, type: f.type, size: f.size }))),
    });
  }, [canShare, maxBytes] as const);
}

/** A folder that records every file written into it; `existing` are already there (and must not be replaced). */
async function recordFolder(page: Page, existing: string[]) {
  await page.addInitScript((already) => {
    const written: { name: string; type: string; size: number; head: number[] }[] = [];
    const names = new Set(already);
    (window as unknown as { __written: typeof written }).__written = written;
    const folder = {
      name: 'Converted',
      async getFileHandle(name: string, options?: { create?: boolean }) {
        if (!names.has(name) && !options?.create) throw new DOMException(`${name} not found`, 'NotFoundError');
        names.add(name);
        return {
          async createWritable() {
            const parts: Blob[] = [];
            return {
              async write(data: Blob) {
                parts.push(data);
              },
              async close() {
                const blob = new Blob(parts);
                written.push({ name, type: parts[0]?.type ?? '', size: blob.size, head: [...new Uint8Array(await blob.slice(0, 16).arrayBuffer())] });
              },
            };
          },
        };
      },
    };
    Object.defineProperty(window, 'showDirectoryPicker', { configurable: true, value: async () => folder });
  }, existing);
}

test('"Save all to folder…" writes every output into the picked folder as it finishes, numbering a name the folder already has rather than replacing it', async ({ page }) => {
  await recordFolder(page, ['camera.webp']);
  await openConverter(page);
  // Two files named photo (photo.webp, photo (2).webp); a 12 MP photo still running when Save is pressed.
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.png, FIXTURES.camera, FIXTURES.photo12mp]);
  await enterEmail(page);
  await convertButton(page).click();
  const save = page.getByRole('button', { name: 'Save all to folder…' });
  await expect(save).toBeVisible();
  await expect(page.locator('[data-testid="job"][data-status="processing"], [data-testid="job"][data-status="pending"]').first()).toBeVisible();
  await save.click();
  await expect(page.getByText('Saved 4 images', { exact: true })).toBeVisible();
  await expect(page.getByText('In the folder Converted.')).toBeVisible();

  const written = await page.evaluate(() => (window as unknown as { __written: Recorded[] }).__written);
  expect(written.map((w) => w.name).sort()).toEqual(['camera (2).webp', 'camera-12mp.webp', 'photo (2).webp', 'photo.webp']);
  const zip = await downloadAllZip(page);
  const zipSizes = Object.values(zip).map((bytes) => bytes.length).sort();
  expect(written.map((w) => w.size).sort()).toEqual(zipSizes);
  for (const file of written) expect(magicFormat(Buffer.from(file.head)), file.name).toBe('webp');
});

test('Share buttons appear only where the browser can share files', async ({ page }) => {
  await recordShares(page, false);
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg]);
  await convertAll(page, 1);
  await expect(page.getByRole('button', { name: 'Download All (.zip)' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Share/ })).toHaveCount(0);
});

test('where it can, Share on a finished job shares that output, and "Share all" every one', async ({ page }) => {
  await recordShares(page, true);
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.camera]);
  await chooseFormat(page, 'JPG');
  await convertAll(page, 2);
  await page.getByRole('button', { name: 'Share camera.jpg' }).click();
  await page.getByRole('button', { name: 'Share all' }).click();
  const shares = await page.evaluate(() => (window as unknown as { __shares: { name: string; type: string; size: number }[][] }).__shares);
  expect(shares.map((files) => files.map((f) => [f.name, f.type]))).toEqual([
    [['camera.jpg', 'image/jpeg']],
    [['photo.jpg', 'image/jpeg'], ['camera.jpg', 'image/jpeg']],
  ]);
  expect(shares[1]!.every((f) => f.size > 0)).toBe(true);
});

test('on a 360 px phone that can share, Share all is an icon beside Download All and Convert, and a job\'s text clears its buttons', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await recordShares(page, true);
  // A phone's browser shares files but picks no folder (Chrome on Android has no showDirectoryPicker).
  await page.addInitScript(() => delete (window as Window & { showDirectoryPicker?: unknown }).showDirectoryPicker);
  await openConverter(page);
  // A 12 MP photo: the longest dimensions line, "4000 × 3000".
  await pickFiles(page, [FIXTURES.photo12mp]);
  await convertAll(page, 1);
  const shareAll = page.getByRole('button', { name: 'Share all' });
  await expect(shareAll).toBeVisible();
  const box = (await shareAll.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(56);
  for (const name of ['Download All (.zip)', /^Convert \d+ images?/]) {
    const other = (await page.getByRole('button', { name }).boundingBox())!;
    expect(Math.abs(other.y - box.y), String(name)).toBeLessThan(2);
  }
  const format = (await page.locator('.job__format').first().boundingBox())!;
  const download = (await page.getByRole('button', { name: 'Download camera-12mp.webp' }).boundingBox())!;
  const textRight = await page.locator('.job__format').first().evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return Math.max(...[...range.getClientRects()].map((rect) => rect.right));
  });
  expect(textRight).toBeLessThanOrEqual(download.x);
  expect(format.x).toBeGreaterThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('in a 360 px window that can share and save to a folder, the bar\'s four buttons show their whole labels, the last on a row of its own', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await recordShares(page, true);
  await recordFolder(page, []);
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg]);
  await convertAll(page, 1);
  const bar = page.getByRole('region', { name: 'Convert' });
  const boxes = [];
  for (const name of ['Share all', 'Save all to folder…', 'Download All (.zip)', /^Convert \d+ images?/]) {
    const button = bar.getByRole('button', { name });
    const box = (await button.boundingBox())!;
    expect(box.x, String(name)).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, String(name)).toBeLessThanOrEqual(360);
    expect(await button.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), `${String(name)}: its label fits`).toBe(true);
    boxes.push(box);
  }
  const [share, save, download, convert] = boxes as [typeof boxes[0], typeof boxes[0], typeof boxes[0], typeof boxes[0]];
  expect(Math.abs(save.y - share.y)).toBeLessThan(2);
  expect(Math.abs(download.y - share.y)).toBeLessThan(2);
  expect(convert.y).toBeGreaterThan(share.y + share.height);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('in a 700 px window with "Save all to folder…", the bar\'s three buttons fit (they go under the batch\'s state)', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 800 });
  await recordFolder(page, []);
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg]);
  await convertAll(page, 1);
  for (const name of ['Save all to folder…', 'Download All (.zip)', /^Convert \d+ images?/]) {
    const box = (await page.getByRole('button', { name }).boundingBox())!;
    expect(box.x, String(name)).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, String(name)).toBeLessThanOrEqual(700);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(700);
});

test('a file the browser will not share says so, and a batch too large for one share says what to do instead', async ({ page }) => {
  // The share probe (1 byte) passes; a converted photo does not.
  await recordShares(page, true, 1000);
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.camera]);
  await chooseFormat(page, 'JPG');
  await convertAll(page, 2);
  await page.getByRole('button', { name: 'Share camera.jpg' }).click();
  await expect(page.getByText('This image cannot be shared')).toBeVisible();
  await expect(page.getByText('Your browser will not share a file this large. Download it instead.')).toBeVisible();
  await page.getByRole('button', { name: 'Share all' }).click();
  await expect(page.getByText('Too many to share at once')).toBeVisible();
  await expect(page.getByText('Share fewer images, or use Download All (.zip).')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __shares: unknown[] }).__shares)).toEqual([]);
});
