import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { convertButton, enterEmail, fileCard, FIXTURE_DIR, fixture, fixtureBytes, openConverter } from './helpers.ts';
import { convertAll, decoded, downloadAllZip, magicFormat } from './convert-helpers.ts';

/**
 * Hostile and heavy input, each in one batch with good files: the bad one gets its own clear state and the others
 * convert. The device is pinned at 8 GB (navigator.deviceMemory), so the pixel limit is 100 megapixels on any machine.
 */

const jobsIn = (page: Page, status: string) => page.locator(`[data-testid="job"][data-status="${status}"]`);

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid 30000 × 30000 1-bit greyscale PNG, all black. About 110 KB on disk; decoded to
 * RGBA it would take 3.6 GB.
 */
function pngBomb(): Buffer {
  const edge = 30_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(edge, 0);
  header.writeUInt32BE(edge, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, not interlaced
  const rowBytes = 1 + edge / 8;
  const pixels = deflateSync(Buffer.alloc(rowBytes * edge), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 8, configurable: true }));
  await openConverter(page);
});

test('a decompression bomb is refused at intake with its size while the good files convert', async ({ page }) => {
  await page.getByTestId('file-input').setInputFiles([
    { name: 'bomb.png', mimeType: 'image/png', buffer: pngBomb() },
    { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: fixtureBytes(FIXTURES.jpeg) },
    { name: 'photo.png', mimeType: 'image/png', buffer: fixtureBytes(FIXTURES.png) },
  ]);
  await expect(fileCard(page, 'bomb.png').getByText('Image too large: 900 megapixels (limit 100)')).toBeVisible();
  await expect(page.getByText('Ready to convert')).toHaveCount(2);
  await expect(convertButton(page)).toHaveText('Convert 2 images');
  await convertAll(page, 2);
  await expect(jobsIn(page, 'completed')).toHaveCount(2);
  expect(Object.keys(await downloadAllZip(page)).sort()).toEqual(['photo (2).webp', 'photo.webp']);
});

test('a truncated JPEG and a PNG with garbage after its signature each end in a clear state; the good file converts', async ({ page }) => {
  const whole = fixtureBytes(FIXTURES.largeJpeg);
  const garbage = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 131 + 7) & 0xff))]);
  await page.getByTestId('file-input').setInputFiles([
    { name: 'half.jpg', mimeType: 'image/jpeg', buffer: whole.subarray(0, Math.floor(whole.length / 2)) },
    { name: 'garbage.png', mimeType: 'image/png', buffer: garbage },
    { name: 'good.jpg', mimeType: 'image/jpeg', buffer: fixtureBytes(FIXTURES.jpeg) },
  ]);
  // Garbage where the header should be: refused before any decode.
  await expect(fileCard(page, 'garbage.png').getByText('Invalid file format. File may be corrupted or malicious.')).toBeVisible();
  // A cut-off download keeps its header: accepted, and the browser decodes what is there (the rest grey), as any viewer shows it.
  await expect(fileCard(page, 'half.jpg').getByText('Ready to convert')).toBeVisible();
  await page.getByRole('radio', { name: 'PNG', exact: true }).check();
  await convertAll(page, 2);
  await expect(jobsIn(page, 'completed')).toHaveCount(2);
  const files = await downloadAllZip(page);
  expect(Object.keys(files).sort()).toEqual(['good.png', 'half.png']);
  const half = await decoded(files['half.png']!);
  expect([half.width, half.height]).toEqual([1200, 900]);
});

test('a worker that fails under one job fails only that job; the pool replaces it and the batch completes', async ({ page }) => {
  // The test's own fault hook, never in the app's bundle: the conversion worker's script is served with a listener
  // appended that throws an uncaught error (as a crashing codec would) when the worker is handed a file named fault-*.
  const faultHook = `
    self.addEventListener('message', (event) => {
      const file = event.data?.argumentList?.[0]?.value?.file;
      if (file instanceof File && file.name.startsWith('fault-')) setTimeout(() => { throw new Error('injected fault'); });
    });`;
  await page.route(/\/assets\/convert\.worker-[^/]+\.js$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()) + faultHook });
  });
  // One core, so one conversion worker: the jobs after the fault can only run in the worker that replaces it.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 1, configurable: true }));
  const convertWorkers: string[] = [];
  page.on('worker', (worker) => {
    if (worker.url().includes('/convert.worker-')) convertWorkers.push(worker.url());
  });
  await openConverter(page);
  await page.getByTestId('file-input').setInputFiles([{ name: 'fault-photo.jpg', mimeType: 'image/jpeg', buffer: fixtureBytes(FIXTURES.largeJpeg) }]);
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.jpeg), fixture(FIXTURES.secondJpeg), fixture(FIXTURES.png)]);
  await expect(page.getByText('Ready to convert')).toHaveCount(4);
  await convertAll(page, 4);
  const faulty = page.getByTestId('job').filter({ hasText: 'fault-photo.jpg' });
  await expect(faulty).toHaveAttribute('data-status', 'error');
  await expect(faulty.getByText('Conversion failed')).toBeVisible();
  await expect(jobsIn(page, 'completed')).toHaveCount(3);
  await expect(page.getByText('3 images converted, 1 failed.')).toBeVisible();
  expect(convertWorkers.length).toBeGreaterThanOrEqual(2);
  const files = await downloadAllZip(page);
  expect(Object.keys(files).sort()).toEqual(['photo.webp', 'photo (2).webp', 'second.webp'].sort());
  for (const bytes of Object.values(files)) expect(magicFormat(bytes)).toBe('webp');
});

test('200 files added at once: previews only for the cards in the page, every one converts and the zip holds 200 entries with unique names', async ({ page }) => {
  // Its limit, like every test's, is several times what it takes here with a busy process beside it.
  test.setTimeout(480_000);
  // Two folders of 100 with the same names, as a visitor picking twice from two cameras would.
  const paths: string[] = [];
  for (const folder of ['a', 'b']) {
    const dir = join(FIXTURE_DIR, 'batch-200', folder);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 100; i++) {
      const path = join(dir, `img-${String(i).padStart(3, '0')}.jpg`);
      const shade = (i * 7 + (folder === 'a' ? 0 : 100)) % 256;
      writeFileSync(path, await sharp({ create: { width: 48, height: 36, channels: 3, background: { r: shade, g: 255 - shade, b: 128 } } }).jpeg().toBuffer());
      paths.push(path);
    }
  }
  await page.getByTestId('file-input').setInputFiles(paths);
  await expect(page.getByTestId('selection-summary')).toHaveText(/^200 valid images/);
  // A long selection keeps only the cards near the screen in the page.
  await expect(page.getByText('Ready to convert').first()).toBeVisible();
  expect(await page.getByTestId('file-card').count()).toBeLessThan(80);
  // Previews are made for those cards only: every card in the page gets one, the 200 are not all decoded.
  const summary = page.getByTestId('selection-summary');
  const cardsWithout = page.locator('[data-testid="file-card"]:not(:has(img))');
  await expect(cardsWithout).toHaveCount(0);
  const previews = Number(await summary.getAttribute('data-previews'));
  expect(previews).toBeGreaterThan(0);
  expect(previews).toBeLessThan(100);
  // Scrolled to the end, the last cards ask for theirs.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByTestId('file-card').filter({ hasText: 'img-099.jpg' }).last().locator('img')).toBeVisible();
  await expect(cardsWithout).toHaveCount(0);
  expect(Number(await summary.getAttribute('data-previews'))).toBeLessThan(200);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(convertButton(page)).toHaveText('Convert 200 images');
  await enterEmail(page);
  await convertButton(page).click();
  await expect(page.getByRole('heading', { name: 'Conversion Queue (200)' })).toBeVisible();
  // A long queue keeps only the rows near the screen in the page: far fewer than 200, and the last one reachable.
  const rows = await page.getByTestId('job').count();
  expect(rows).toBeGreaterThan(0);
  expect(rows).toBeLessThan(60);
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 200 of 200 done' })).toBeVisible();
  await expect(page.getByText('200 images converted.')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByTestId('job').filter({ hasText: 'img-099.jpg' }).last()).toHaveAttribute('data-status', 'completed');
  const files = await downloadAllZip(page);
  const names = Object.keys(files);
  expect(names).toHaveLength(200);
  expect(new Set(names).size).toBe(200);
  expect(names).toContain('img-000.webp');
  expect(names).toContain('img-000 (2).webp');
  for (const bytes of Object.values(files)) expect(magicFormat(bytes)).toBe('webp');
  expect(await sharp(files['img-099 (2).webp']!).metadata()).toMatchObject({ width: 48, height: 36 });
});

/** A two-frame APNG (red, then blue) from two same-sized PNGs: the second frame's IDAT becomes an fdAT. */
async function apng(width: number, height: number): Promise<Buffer> {
  const frame = (colour: string) => sharp({ create: { width, height, channels: 4, background: colour } }).png({ compressionLevel: 9 }).toBuffer();
  const idat = (png: Buffer) => {
    const chunks: Buffer[] = [];
    for (let at = 8; at < png.length; ) {
      const length = png.readUInt32BE(at);
      if (png.toString('latin1', at + 4, at + 8) === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
      at += 12 + length;
    }
    return Buffer.concat(chunks);
  };
  const [red, blue] = [await frame('#ff0000'), await frame('#0000ff')];
  const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff])));
  const frameControl = (sequence: number) => Buffer.concat([u32(sequence, width, height, 0, 0), Buffer.from([0, 1, 0, 10, 0, 0])]);
  return Buffer.concat([
    red.subarray(0, 33), // signature and IHDR
    pngChunk('acTL', u32(2, 0)),
    pngChunk('fcTL', frameControl(0)),
    pngChunk('IDAT', idat(red)),
    pngChunk('fcTL', frameControl(1)),
    pngChunk('fdAT', Buffer.concat([u32(2), idat(blue)])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

test('odd but valid files convert right, and the ones that are not images say why', async ({ page }) => {
  const photo = () => sharp(fixtureBytes(FIXTURES.jpeg)).resize(120, 90);
  const rgba = Buffer.alloc(64 * 48 * 4);
  for (let i = 0; i < 64 * 48; i++) rgba.set(i % 64 < 32 ? [0, 0, 0, 0] : [20, 160, 60, 255], i * 4);
  const longName = `${'Отпуск на море — 海辺の休日 — '.repeat(8)}final.JPG`;
  const files = [
    { name: 'cmyk.jpg', mimeType: 'image/jpeg', buffer: await photo().toColourspace('cmyk').jpeg().toBuffer() },
    { name: 'progressive.jpg', mimeType: 'image/jpeg', buffer: await photo().jpeg({ progressive: true }).toBuffer() },
    { name: 'grey.jpg', mimeType: 'image/jpeg', buffer: await photo().greyscale().jpeg().toBuffer() },
    { name: 'deep.png', mimeType: 'image/png', buffer: await photo().toColourspace('rgb16').png().toBuffer() },
    { name: 'interlaced.png', mimeType: 'image/png', buffer: await photo().png({ progressive: true }).toBuffer() },
    { name: 'palette.png', mimeType: 'image/png', buffer: await sharp(rgba, { raw: { width: 64, height: 48, channels: 4 } }).png({ palette: true }).toBuffer() },
    { name: 'animated.png', mimeType: 'image/png', buffer: await apng(40, 30) },
    {
      name: 'animated.webp',
      mimeType: 'image/webp',
      buffer: await sharp([await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } }).png().toBuffer(), await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0000ff' } }).png().toBuffer()], { join: { animated: true } })
        .webp({ loop: 0, lossless: true })
        .toBuffer(),
    },
    { name: 'SHOUTING.JPG', mimeType: 'image/jpeg', buffer: await photo().jpeg().toBuffer() },
    { name: longName, mimeType: 'image/jpeg', buffer: await photo().jpeg().toBuffer() },
    { name: 'empty.png', mimeType: 'image/png', buffer: Buffer.alloc(0) },
    { name: 'no-extension', mimeType: '', buffer: await photo().jpeg().toBuffer() },
  ];
  await page.getByTestId('file-input').setInputFiles(files);
  await expect(fileCard(page, 'empty.png').getByText('Invalid file format. File may be corrupted or malicious.')).toBeVisible();
  await expect(fileCard(page, 'no-extension').getByText('Not an image file.')).toBeVisible();
  await expect(page.getByText('Ready to convert')).toHaveCount(10);
  await page.getByRole('radio', { name: 'PNG', exact: true }).check();
  await convertAll(page, 10);
  await expect(jobsIn(page, 'completed')).toHaveCount(10);
  const outputs = await downloadAllZip(page);
  const longOutput = longName.replace(/\.JPG$/, '.png');
  expect(Object.keys(outputs).sort()).toEqual(
    ['cmyk.png', 'progressive.png', 'grey.png', 'deep.png', 'interlaced.png', 'palette.png', 'animated.png', 'animated (2).png', 'SHOUTING.png', longOutput].sort(),
  );
  for (const name of ['cmyk.png', 'progressive.png', 'grey.png', 'deep.png', 'interlaced.png', 'SHOUTING.png', longOutput]) {
    const image = await decoded(outputs[name]!);
    expect([name, image.width, image.height]).toEqual([name, 120, 90]);
    // The same photo whichever way it was stored: CMYK and 16-bit come out as the colours they describe.
    expect(Math.abs(image.meanLuma() - (await decoded(await photo().png().toBuffer())).meanLuma()), name).toBeLessThan(12);
  }
  const palette = await decoded(outputs['palette.png']!);
  expect(palette.pixel(4, 4)[3]).toBe(0);
  expect(palette.pixel(60, 40)).toEqual([20, 160, 60, 255]);
  // Animations: the first frame (red), whole.
  for (const name of ['animated.png', 'animated (2).png']) {
    const first = await decoded(outputs[name]!);
    expect([first.width, first.height]).toEqual([40, 30]);
    expect(first.pixel(20, 15).slice(0, 3)).toEqual([255, 0, 0]);
  }
});

test('an output size over the pixel limit fails its jobs before any resampling, saying why', async ({ page }) => {
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.jpeg)]);
  await expect(page.getByText('Ready to convert')).toHaveCount(1);
  await page.getByLabel('Width (px)').fill('16384');
  await page.getByLabel('Height (px)').fill('16384');
  await convertAll(page, 1);
  const job = page.getByTestId('job');
  await expect(job).toHaveAttribute('data-status', 'error');
  await expect(job.getByText('Output too large: 268 megapixels (limit 100)')).toBeVisible();
});
