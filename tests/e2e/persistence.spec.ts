import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { chromiumArgs, testChromiumPath } from '../../playwright.config.ts';
import { chooseFormat, convertButton, enterEmail, fixture, holdHeicDecoder, openConverter } from './helpers.ts';
import { downloadAllZip, downloadJob, magicFormat } from './convert-helpers.ts';
import { KEPT_FILES, KEPT_SOURCE_SIZES, RECORDED_LOOKS } from '../keptBatch.ts';

/**
 * Nothing lost: the batch is kept on the device as it converts (the origin private file system here, in Chromium), so
 * a reload, a tab the system discards or a closed browser gives it back, and Clear deletes it.
 */

/** What the queue says where the device keeps the batch. */
const KEPT_NOTE = 'Results wait on this device until you download or clear them — nothing is uploaded.';
const jobsIn = (page: Page, status: string) => page.locator(`[data-testid="job"][data-status="${status}"]`);

/** Opens the app and waits until it has opened the batch kept on the device (or found it cannot: 'memory'). */
async function openWithBatch(page: Page, where: 'device' | 'memory' = 'device'): Promise<void> {
  await openConverter(page);
  await expect(page.locator('html')).toHaveAttribute('data-batch', where);
}

/** The files the batch keeps on the device, by name (source-<job>, output-<job>.<extension>). */
const keptFiles = (page: Page) => page.evaluate<string[]>(`(async () => { ${KEPT_FILES} })()`);

/** The sizes of the sources kept so far (a copy in progress is a shorter file). */
const keptSourceSizes = (page: Page) => page.evaluate<number[]>(`(async () => { ${KEPT_SOURCE_SIZES} })()`);
const HEIC_BYTES = () => readFileSync(fixture(FIXTURES.heic)).length;
const bothHeicSourcesKept = (page: Page) => expect.poll(async () => (await keptSourceSizes(page)).filter((size) => size === HEIC_BYTES()).length).toBe(2);

const storageUsage = (page: Page) => page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);

/** Whether leaving the page now asks the visitor first (a beforeunload handler cancels the event). */
const leavingIsQuestioned = (page: Page) =>
  page.evaluate(() => {
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    return leaving.defaultPrevented;
  });

/** A fixture as the file input's payload (paths and buffers cannot be mixed in one pick). */
const fixtureFile = (name: string) => ({ name, mimeType: name.endsWith('.png') ? 'image/png' : 'image/jpeg', buffer: readFileSync(fixture(name)) });

/** HEIC photos under names of their own: Chromium decodes them with libheif, whose download a test can hold. */
function heicPhotos(count: number) {
  const photo = readFileSync(fixture(FIXTURES.heic));
  return Array.from({ length: count }, (_, i) => ({ name: `trip-${i + 1}.heic`, mimeType: 'image/heic', buffer: photo }));
}

/** Three small pictures (a JPEG, a PNG, a WebP) to JPG, until all three are done. */
async function convertThreeToJpg(page: Page): Promise<void> {
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.jpeg), fixture(FIXTURES.png), fixture(FIXTURES.webp)]);
  await chooseFormat(page, 'JPG');
  await enterEmail(page);
  await convertButton(page).click();
  await expect(jobsIn(page, 'completed')).toHaveCount(3);
}

async function setQuality(page: Page, value: number): Promise<void> {
  await page.getByRole('slider', { name: /Quality/ }).fill(String(value));
  await expect(page.getByRole('slider', { name: /Quality/ })).toHaveValue(String(value));
}

test('outputs are kept on the device as they finish, download with the same bytes, and Clear finished deletes them', async ({ page }) => {
  await openWithBatch(page);
  const idle = await storageUsage(page);
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.largeJpeg), fixture(FIXTURES.jpeg)]);
  // To PNG: outputs of megabytes, which the storage estimate cannot miss; the browser's encoder, the quickest to write them.
  await chooseFormat(page, 'PNG');
  await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
  await enterEmail(page);
  await convertButton(page).click();
  await expect(jobsIn(page, 'completed')).toHaveCount(2);
  // The outputs, and the sources (what Compare shows, and Retry or a later page would need) until the jobs are cleared.
  await expect.poll(() => keptFiles(page)).toEqual([
    expect.stringMatching(/^output-.+\.png$/),
    expect.stringMatching(/^output-.+\.png$/),
    expect.stringMatching(/^source-/),
    expect.stringMatching(/^source-/),
  ]);
  await expect(page.getByText(KEPT_NOTE)).toBeVisible();

  // The page's outputs are the stored files: the zip holds exactly their bytes.
  // Each stored output's bytes as base64 (a data: URL's tail): megabytes cross from the page as text, not as numbers.
  const stored = await page.evaluate(async () => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('batch');
    const files: string[] = [];
    for await (const [name, handle] of folder.entries()) {
      if (!name.startsWith('output-')) continue;
      const file = await (handle as FileSystemFileHandle).getFile();
      const url = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as string);
        reader.readAsDataURL(file);
      });
      files.push(url.slice(url.indexOf(',') + 1));
    }
    return files;
  });
  const zip = await downloadAllZip(page);
  expect(Object.values(zip).map((bytes) => bytes.toString('base64')).sort()).toEqual(stored.sort());
  const outputBytes = Object.values(zip).reduce((sum, bytes) => sum + bytes.length, 0);
  expect(outputBytes).toBeGreaterThan(1024 * 1024);
  expect((await storageUsage(page)) - idle).toBeGreaterThanOrEqual(outputBytes);

  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect.poll(() => keptFiles(page)).toEqual([]);
  // Back near idle: what is left is the record's own database (a few pages), not the outputs.
  expect((await storageUsage(page)) - idle).toBeLessThan(256 * 1024);
});

test('outputs downloaded, one by one or in the zip, can be let go with "Clear downloaded": their files leave the device, the rest stay', async ({ page }) => {
  await openWithBatch(page);
  await convertThreeToJpg(page);
  await expect.poll(async () => (await keptFiles(page)).length).toBe(6);
  await expect(page.getByRole('button', { name: /^Clear downloaded/ })).toHaveCount(0);

  // One downloaded: it may go, with its output and its source.
  const first = page.getByTestId('job').first();
  const taken = (await first.getAttribute('data-id'))!;
  await Promise.all([page.waitForEvent('download'), first.getByRole('button', { name: 'Download photo.jpg' }).click()]);
  await page.getByRole('button', { name: 'Clear downloaded (1)' }).click();
  await expect(page.getByTestId('job')).toHaveCount(2);
  await expect(page.locator(`[data-testid="job"][data-id="${taken}"]`)).toHaveCount(0);
  await expect.poll(() => keptFiles(page)).toHaveLength(4);
  expect((await keptFiles(page)).filter((file) => file.includes(taken))).toEqual([]);

  // The rest in the zip: all of them may go.
  expect(Object.keys(await downloadAllZip(page))).toHaveLength(2);
  await page.getByRole('button', { name: 'Clear downloaded (2)' }).click();
  await expect(page.getByTestId('job')).toHaveCount(0);
  await expect.poll(() => keptFiles(page)).toEqual([]);
});

test('a look judged after its batch is kept with the batch: a reload shows the same verdict', async ({ page }) => {
  await openWithBatch(page);
  await page.getByTestId('file-input').setInputFiles([fixtureFile(FIXTURES.jpeg), fixtureFile(FIXTURES.secondJpeg)]);
  await expect(page.getByText('Ready to convert')).toHaveCount(2);
  await chooseFormat(page, 'WebP');
  await enterEmail(page);
  await convertButton(page).click();
  await expect(jobsIn(page, 'completed')).toHaveCount(2);
  // Judged once the batch is done, each job's verdict replaces "Checking look…".
  await expect(page.getByTestId('look')).toHaveCount(2);
  await expect(page.getByTestId('look-pending')).toHaveCount(0);
  const scores = await page.getByTestId('look').evaluateAll((looks) => looks.map((look) => look.getAttribute('data-score')));
  // The record follows: both looks are written to it.
  await expect.poll(() => page.evaluate<number>(`(async () => { ${RECORDED_LOOKS} })()`)).toBe(2);

  await page.reload();
  await openWithBatch(page);
  await expect(page.getByText('Your last batch is back')).toBeVisible();
  await expect(jobsIn(page, 'completed')).toHaveCount(2);
  await expect.poll(() => page.getByTestId('look').evaluateAll((looks) => looks.map((look) => look.getAttribute('data-score')))).toEqual(scores);
});

test('a reload mid-batch: what was done is listed with the same bytes, the rest converts, the settings are as they were', async ({ page }) => {
  const unhold = await holdHeicDecoder(page);
  await openWithBatch(page);
  await page.getByTestId('file-input').setInputFiles([fixtureFile(FIXTURES.jpeg), fixtureFile(FIXTURES.secondJpeg), ...heicPhotos(2)]);
  await expect(page.getByText('Ready to convert')).toHaveCount(4);
  await chooseFormat(page, 'AVIF');
  await setQuality(page, 60);
  await enterEmail(page);
  await convertButton(page).click();
  // The two JPEGs are done; the two HEICs wait for their decoder, their sources copied to the device.
  await expect(jobsIn(page, 'completed')).toHaveCount(2);
  await bothHeicSourcesKept(page);
  // Kept on the device, the batch needs no question before leaving.
  expect(await leavingIsQuestioned(page)).toBe(false);
  const before = { photo: await downloadJob(page, 'photo.avif'), second: await downloadJob(page, 'second.avif') };
  expect(await jobsIn(page, 'completed').count()).toBe(2);

  await unhold();
  await page.reload();
  await openWithBatch(page);
  await expect(page.getByText('Your last batch is back')).toBeVisible();
  await expect(page.getByTestId('job')).toHaveCount(4);
  expect((await downloadJob(page, 'photo.avif')).equals(before.photo)).toBe(true);
  expect((await downloadJob(page, 'second.avif')).equals(before.second)).toBe(true);
  // The settings panel shows the batch's settings again.
  await expect(page.getByRole('radio', { name: 'AVIF', exact: true })).toBeChecked();
  await expect(page.getByRole('slider', { name: /Quality/ })).toHaveValue('60');

  await expect(jobsIn(page, 'completed')).toHaveCount(4);
  for (const name of ['trip-1.avif', 'trip-2.avif']) {
    const bytes = await downloadJob(page, name);
    expect(magicFormat(bytes)).toBe('avif');
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 400, height: 300 });
  }
  // The zip takes the restored outputs' CRC-32 from the record, the others' from the worker that made them: every
  // entry's bytes match the CRC the archive records (downloadAllZip), and are the files downloaded one by one.
  const zipped = await downloadAllZip(page);
  expect(Object.keys(zipped).sort()).toEqual(['photo.avif', 'second.avif', 'trip-1.avif', 'trip-2.avif']);
  expect(zipped['photo.avif']!.equals(before.photo) && zipped['second.avif']!.equals(before.second)).toBe(true);
  // Clear finished deletes every file of the batch.
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect.poll(() => keptFiles(page)).toEqual([]);
});

test('a tab closed mid-batch without a word (a phone discarding it): the next tab picks the batch up', async ({ context }) => {
  const page = await context.newPage();
  await holdHeicDecoder(page);
  await openWithBatch(page);
  await page.getByTestId('file-input').setInputFiles(heicPhotos(2));
  await expect(page.getByText('Ready to convert')).toHaveCount(2);
  await chooseFormat(page, 'AVIF');
  await enterEmail(page);
  await convertButton(page).click();
  await expect(jobsIn(page, 'processing').first()).toBeVisible();
  await bothHeicSourcesKept(page);
  await page.close({ runBeforeUnload: false });

  // The hold was the closed page's: the next tab's decoder loads.
  const next = await context.newPage();
  await openWithBatch(next);
  await expect(next.getByTestId('job')).toHaveCount(2);
  await expect(jobsIn(next, 'completed')).toHaveCount(2);
  const zip = await downloadAllZip(next);
  expect(Object.keys(zip).sort()).toEqual(['trip-1.avif', 'trip-2.avif']);
});

test('results outlive the browser: closed and opened again with the same profile, they are still there', async ({ baseURL }) => {
  const profile = mkdtempSync(join(tmpdir(), 'pixel-converter-profile-'));
  const launch = () => chromium.launchPersistentContext(profile, { executablePath: testChromiumPath, args: chromiumArgs, baseURL, serviceWorkers: 'block', acceptDownloads: true });
  const firstPage = async (context: BrowserContext) => context.pages()[0] ?? (await context.newPage());
  try {
    let context = await launch();
    let page = await firstPage(context);
    await openWithBatch(page);
    await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.jpeg), fixture(FIXTURES.png)]);
    await chooseFormat(page, 'JPG');
    await enterEmail(page);
    await convertButton(page).click();
    await expect(jobsIn(page, 'completed')).toHaveCount(2);
    const before = await downloadAllZip(page);
    await context.close();

    context = await launch();
    page = await firstPage(context);
    await openWithBatch(page);
    await expect(jobsIn(page, 'completed')).toHaveCount(2);
    const after = await downloadAllZip(page);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const [name, bytes] of Object.entries(after)) expect(bytes.equals(before[name]!), name).toBe(true);
    await context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});

test('results older than a day are deleted when the page loads', async ({ page }) => {
  await openWithBatch(page);
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.jpeg)]);
  await enterEmail(page);
  await convertButton(page).click();
  await expect(jobsIn(page, 'completed')).toHaveCount(1);
  // The source and the output.
  await expect.poll(() => keptFiles(page)).toHaveLength(2);

  // The next load happens a day and an hour later.
  await page.addInitScript(() => {
    const now = Date.now;
    Date.now = () => now() + 25 * 60 * 60 * 1000;
  });
  await page.reload();
  await openWithBatch(page);
  await expect.poll(() => keptFiles(page)).toEqual([]);
  await expect(page.getByTestId('job')).toHaveCount(0);
});

test("a full device keeps the rest of the run in memory, says so once, and every job completes", async ({ page }) => {
  // The storage layer's own limit on a file: 0 bytes makes every write a full device.
  await page.addInitScript(() => localStorage.setItem('pixel-converter:device-storage-limit', '0'));
  await openWithBatch(page);
  await convertThreeToJpg(page);
  await expect(page.getByText("This device's storage is full")).toHaveCount(1);
  expect(await keptFiles(page)).toEqual([]);
  await expect(page.getByText(KEPT_NOTE)).toHaveCount(0);
  const zip = await downloadAllZip(page);
  expect(Object.keys(zip)).toHaveLength(3);
  for (const bytes of Object.values(zip)) expect(magicFormat(bytes)).toBe('jpeg');
});

test('leaving mid-run asks first only where the batch is not kept on the device (another tab keeps its own)', async ({ context }) => {
  const keeper = await context.newPage();
  await openWithBatch(keeper);
  // A second tab: the first one keeps its batch on the device, so this one converts in memory.
  const other = await context.newPage();
  await holdHeicDecoder(other);
  await openWithBatch(other, 'memory');
  await other.getByTestId('file-input').setInputFiles(heicPhotos(1));
  await chooseFormat(other, 'AVIF');
  await enterEmail(other);
  expect(await leavingIsQuestioned(other)).toBe(false);
  await convertButton(other).click();
  await expect(jobsIn(other, 'processing')).toHaveCount(1);
  expect(await leavingIsQuestioned(other)).toBe(true);
  await expect(other.getByText(KEPT_NOTE)).toHaveCount(0);
  await other.getByRole('button', { name: 'Cancel trip-1.heic' }).click();
  await expect(other.getByTestId('job')).toHaveCount(0);
  expect(await leavingIsQuestioned(other)).toBe(false);
  await other.close();

  await holdHeicDecoder(keeper);
  await keeper.getByTestId('file-input').setInputFiles(heicPhotos(1));
  await chooseFormat(keeper, 'AVIF');
  await enterEmail(keeper);
  await convertButton(keeper).click();
  await expect(jobsIn(keeper, 'processing')).toHaveCount(1);
  expect(await leavingIsQuestioned(keeper)).toBe(false);
  // Said as the run starts, before a result is kept: said later, it moved the page mid-run.
  await expect(keeper.getByText(KEPT_NOTE)).toBeVisible();
  expect(await jobsIn(keeper, 'completed').count()).toBe(0);
});
