import { expect, test } from './shared-page.ts';
import sharp from 'sharp';
import { ANIMATED_FRAMES, FIXTURES, photo, photoPixels } from '../fixtures/make-fixtures.ts';
import { chooseFormat, fileCard, fixtureBytes, pickFiles } from './helpers.ts';
import { convertAll, decoded, downloadAllZip, downloadJob, exifOf, magicFormat, sharpReadable } from './convert-helpers.ts';

/** Each output, and what sharp says it read (a JPEG XL reaches it as djxl's PNG: sharpReadable). */
const OUTPUTS = [
  { label: 'JPG', format: 'jpeg', extension: 'jpg', readAs: 'jpeg' },
  { label: 'PNG', format: 'png', extension: 'png', readAs: 'png' },
  { label: 'WebP', format: 'webp', extension: 'webp', readAs: 'webp' },
  { label: 'AVIF', format: 'avif', extension: 'avif', readAs: 'heif' },
  { label: 'JPEG XL', format: 'jxl', extension: 'jxl', readAs: 'png' },
] as const;

/** The mean difference per channel between an output and the photo the fixtures were drawn from (0–255). */
async function differenceFromPhoto(bytes: Buffer): Promise<number> {
  const source = photoPixels(400, 300);
  const { data } = await sharp(sharpReadable(bytes)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (let i = 0; i < source.length; i++) sum += Math.abs(source[i]! - data[i]!);
  return sum / source.length;
}

/**
 * The sources Chromium has no decoder for, or that hold more than one picture. Every source to every format is the
 * route tests' (routes.spec.ts: JPEG, PNG, WebP, AVIF, HEIC and TIFF sources) and the engines' (every source); here the
 * decoders that stand in (libheif, libjxl, UTIF) and the first picture's choice, to a lossless output (the pixels
 * exactly where the source is lossless) and to the default one.
 */
const STAND_IN_OUTPUTS = OUTPUTS.filter((o) => o.format === 'png' || o.format === 'webp');

test(`HEIC, JPEG XL, TIFF, GIF and BMP sources convert to ${STAND_IN_OUTPUTS.map(({ label }) => label).join(' and to ')}: through libheif, libjxl and UTIF here, an animation or a multi-page file as its first picture`, async ({ page }) => {
  await pickFiles(page, [FIXTURES.heic, FIXTURES.jxl, FIXTURES.tiff, FIXTURES.multiPageTiff, FIXTURES.gif, FIXTURES.animatedGif, FIXTURES.bmp]);
  await expect(page.getByText('Ready to convert')).toHaveCount(7);
  // Chromium has no HEIC decoder: the preview is libheif's too.
  await expect(fileCard(page, FIXTURES.heic).locator('img[src^="blob:"]')).toBeVisible();
  // Only the animation's card says what becomes of it.
  await expect(fileCard(page, FIXTURES.animatedGif).getByText('Animated: the first frame is converted.')).toBeVisible();
  await expect(page.getByText('Animated: the first frame is converted.')).toHaveCount(1);
  await expect(fileCard(page, FIXTURES.multiPageTiff).getByText('3 pages: the first page is converted.')).toBeVisible();
  // Both formats in one page, one batch after the other: its workers keep the decoders they compiled.
  for (const output of STAND_IN_OUTPUTS) {
    await chooseFormat(page, output.label);
    await convertAll(page, 7);
    const files = await downloadAllZip(page);
    const photos = ['photo', 'photo (2)', 'photo (3)', 'photo (4)', 'photo (5)'];
    expect(Object.keys(files).sort()).toEqual(['animated', 'pages', ...photos].map((base) => `${base}.${output.extension}`).sort());
    for (const bytes of Object.values(files)) {
      expect(magicFormat(bytes)).toBe(output.format);
      const metadata = await sharp(sharpReadable(bytes)).metadata();
      expect([metadata.width, metadata.height, metadata.pages ?? 1]).toEqual([400, 300, 1]);
    }
    // Each is the photo: the BMP and the TIFF its pixels exactly (PNG keeps them), the HEIC and the JPEG XL lossy, the GIF a 256-colour palette of them.
    const differences = await Promise.all(photos.map((base) => differenceFromPhoto(files[`${base}.${output.extension}`]!)));
    expect(Math.min(...differences)).toBeLessThan(output.format === 'png' ? 0.5 : 6);
    expect(Math.max(...differences)).toBeLessThan(16);
    // The animation and the pages hold the same three pictures: the first is what converts.
    const [er, eg, eb] = [1, 3, 5].map((at) => parseInt(ANIMATED_FRAMES[0].slice(at, at + 2), 16));
    for (const base of ['animated', 'pages']) {
      const [r, g, b] = (await decoded(files[`${base}.${output.extension}`]!)).pixel(200, 150);
      expect(Math.max(Math.abs(r! - er!), Math.abs(g! - eg!), Math.abs(b! - eb!)), base).toBeLessThan(12);
    }
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await expect(page.getByTestId('job')).toHaveCount(0);
  }
});

test('JPEG XL at 100% is lossless (the PNG\'s pixels exactly, as djxl reads them), written on libjxl\'s threads on this isolated page', async ({ page }) => {
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'JPEG XL');
  await page.getByLabel('Quality', { exact: true }).fill('100');
  await expect(page.getByText('JPEG XL is lossless at 100%.')).toBeVisible();
  await convertAll(page, 1);
  const lossless = await downloadJob(page, 'photo.jxl');
  expect(magicFormat(lossless)).toBe('jxl');
  expect(await differenceFromPhoto(lossless)).toBe(0);
  // Only the threaded build starts workers from its own script; the page is cross-origin isolated and Chromium says it has memory for its cores.
  expect(page.workers().filter((worker) => /jxl_enc_mt\.worker/.test(worker.url())).length).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await page.getByLabel('Quality', { exact: true }).fill('80');
  await expect(page.getByText('JPEG XL is lossless at 100%.')).toBeVisible();
  await convertAll(page, 1);
  const lossy = await downloadJob(page, 'photo.jxl');
  expect(lossy.length).toBeLessThan(lossless.length / 2);
  expect(await differenceFromPhoto(lossy)).toBeLessThan(6);
});

test('a single download is named after the source with the new extension (jpeg → .jpg)', async ({ page }) => {
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'JPG');
  await convertAll(page, 1);
  const bytes = await downloadJob(page, 'photo.jpg');
  expect(magicFormat(bytes)).toBe('jpeg');
  const job = page.getByTestId('job');
  await expect(job).toContainText('Converted to JPG');
  await expect(job.getByTestId('output-size')).toHaveText(/\d+(\.\d+)? KB/);
  await expect(job).toContainText('% saved');
});

test('a transparent PNG converted to JPG gets the background colour where it was transparent', async ({ page }) => {
  await pickFiles(page, [FIXTURES.transparent]);
  await chooseFormat(page, 'JPG');
  await page.getByLabel('Background colour').fill('#ff0000');
  await convertAll(page, 1);
  const image = await decoded(await downloadJob(page, 'transparent.jpg'));
  const [r, g, b] = image.pixel(8, 32);
  expect(r).toBeGreaterThan(235);
  expect(g).toBeLessThan(25);
  expect(b).toBeLessThan(25);
});

test('the social preset gives 1080×1080 from a 4:3 photo, and brightness +50 makes it measurably brighter', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg]);
  await page.getByRole('button', { name: 'Social 1080×1080' }).click();
  await page.getByLabel('Brightness', { exact: true }).fill('50');
  await convertAll(page, 1);
  const image = await decoded(await downloadJob(page, 'photo.webp'));
  expect([image.width, image.height]).toEqual([1080, 1080]);
  await expect(page.getByTestId('output-dimensions')).toHaveText('· 1080 × 1080');
  // The centred square of the source, as bright as it was, against the output.
  const square = await decoded(await sharp(fixtureBytes(FIXTURES.jpeg)).extract({ left: 50, top: 0, width: 300, height: 300 }).png().toBuffer());
  expect(image.meanLuma()).toBeGreaterThan(square.meanLuma() * 1.3);
});

// The browser's own WebP encoder; JPG's and AVIF's are the same WebAssembly in Node, where tests/unit/convert.test.ts
// holds them to the band.
for (const [label, extension] of [['WebP', 'webp']] as const) {
  test(`a target size lands within [0.95, 1.0] × target (${label})`, async ({ page }) => {
    // The target is set just above what quality 60 gives, a level the bisection visits (80 → 40 → 60), so a size
    // within 5% exists. Encoders' sizes move in steps (5–20% between neighbouring qualities is common), so not
    // every target has one; the search then returns the largest size that fits (see the next test).
    await pickFiles(page, [FIXTURES.largeJpeg]);
    await chooseFormat(page, label);
    await page.getByLabel('Quality', { exact: true }).fill('60');
    await convertAll(page, 1);
    const atSixty = (await downloadJob(page, `large.${extension}`)).length;
    await page.getByRole('button', { name: 'Clear finished' }).click();
    const targetKb = Math.ceil(atSixty / 1024);
    await page.getByRole('switch', { name: /Target file size/ }).check();
    await page.getByLabel('Target size (KB)').fill(String(targetKb));
    await convertAll(page, 1);
    const bytes = await downloadJob(page, `large.${extension}`);
    expect(bytes.length).toBeLessThanOrEqual(targetKb * 1024);
    expect(bytes.length).toBeGreaterThanOrEqual(0.95 * targetKb * 1024);
  });
}

test('where neighbouring quality levels straddle the 5% band, the result still never exceeds the target', async ({ page }) => {
  // libwebp on this photo: 5,710 bytes at quality 57.3, 6,176 at 57.4 — no quality lands within 5% below 6 KB.
  await pickFiles(page, [FIXTURES.jpeg]);
  await page.getByRole('switch', { name: /Target file size/ }).check();
  await page.getByLabel('Target size (KB)').fill('6');
  await convertAll(page, 1);
  const bytes = await downloadJob(page, 'photo.webp');
  expect(bytes.length).toBeLessThanOrEqual(6 * 1024);
  expect(bytes.length).toBeGreaterThan(0.9 * 6 * 1024);
});

test('an impossible target size fails with "Failed to optimize for target file size" and offers Retry', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg]);
  // PNG is lossless: 400×300 of photo texture cannot fit in 1 KB at any setting.
  await chooseFormat(page, 'PNG');
  await page.getByRole('switch', { name: /Target file size/ }).check();
  await page.getByLabel('Target size (KB)').fill('1');
  await convertAll(page, 1);
  const job = page.getByTestId('job');
  await expect(job).toHaveAttribute('data-status', 'error');
  await expect(job.getByText('Failed to optimize for target file size')).toBeVisible();
  const downloadAll = page.getByRole('button', { name: 'Download All (.zip)' });
  // Its place is kept from the start (so its appearance re-lays out nothing) but nothing is there to download.
  await expect(downloadAll).toBeHidden();
  await page.getByRole('switch', { name: /Target file size/ }).uncheck();
  await page.getByRole('button', { name: `Retry ${FIXTURES.jpeg}` }).click();
  await expect(job).toHaveAttribute('data-status', 'completed');
  await expect(downloadAll).toBeVisible();
});

// The default format, from the browser's own encoder; what each format's writer keeps, in every combination with
// "Keep the original", is tests/unit/convert.test.ts's (the same code in Node, on each format's bytes).
for (const output of OUTPUTS.filter((o) => o.format === 'webp')) {
  test(`strip on removes EXIF; strip off keeps camera make and model (${output.label})`, async ({ page }) => {
    await pickFiles(page, [FIXTURES.camera]);
    await chooseFormat(page, output.label);
    await convertAll(page, 1);
    const stripped = await exifOf(await downloadJob(page, `camera.${output.extension}`));
    expect(stripped.text).toBeUndefined();
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await page.getByRole('switch', { name: /Strip metadata/ }).uncheck();
    await convertAll(page, 1);
    const kept = await exifOf(await downloadJob(page, `camera.${output.extension}`));
    expect(kept.text).toContain('PixelTestCam');
    expect(kept.text).toContain('Model X100');
    expect(kept.orientation).toBe(1);
  });
}

// The two switches as a visitor sets them, on JPG; every format's grid is tests/unit/convert.test.ts's.
test('JPG with EXIF → JPG ends done with each "Strip metadata" × "Keep the original" combination', async ({ page }) => {
  const source = FIXTURES.withExif.jpeg;
  const sourceBytes = fixtureBytes(source);
  const { width, height } = await sharp(sourceBytes).metadata();
  await pickFiles(page, [source]);
  await chooseFormat(page, 'JPG');
  const strip = page.getByRole('switch', { name: /Strip metadata/ });
  const keep = page.getByRole('switch', { name: /Keep the original/ });
  for (const [stripOn, keepOn] of [[true, true], [true, false], [false, true], [false, false]] as const) {
    const combination = `strip ${stripOn ? 'on' : 'off'}, keep ${keepOn ? 'on' : 'off'}`;
    await strip.setChecked(stripOn);
    await keep.setChecked(keepOn);
    await convertAll(page, 1);
    await expect(page.getByTestId('job'), combination).toHaveAttribute('data-status', 'completed');
    const bytes = await downloadJob(page, source);
    expect(magicFormat(bytes), combination).toBe('jpeg');
    const metadata = await sharp(bytes).metadata();
    expect([metadata.width, metadata.height], combination).toEqual([width, height]);
    const exif = await exifOf(bytes);
    // The source (saved at quality 25) comes back only when asked to, since converting makes it larger, and never
    // with metadata the visitor asked to strip.
    expect(bytes.equals(sourceBytes), combination).toBe(keepOn && !stripOn);
    if (stripOn) expect(exif.text, combination).toBeUndefined();
    else expect(exif.text, combination).toContain('PixelTestCam');
    await page.getByRole('button', { name: 'Clear finished' }).click();
  }
});

test('a file whose header passes intake but does not decode fails alone with "Failed to load image"', async ({ page }) => {
  // A real PNG's signature and IHDR (50 × 40), then garbage where the image data should be.
  const header = (await sharp({ create: { width: 50, height: 40, channels: 3, background: '#000' } }).png().toBuffer()).subarray(0, 33);
  const broken = Buffer.concat([header, Buffer.alloc(400, 7)]);
  await page.getByTestId('file-input').setInputFiles([
    { name: 'broken.png', mimeType: 'image/png', buffer: broken },
    { name: 'fine.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 50, height: 40, channels: 3, background: '#3366cc' } }).png().toBuffer() },
  ]);
  await expect(fileCard(page, 'broken.png').getByText('Ready to convert')).toBeVisible();
  await convertAll(page, 2);
  const jobs = page.getByTestId('job');
  await expect(jobs.filter({ hasText: 'broken.png' }).getByText('Failed to load image')).toBeVisible();
  await expect(jobs.filter({ hasText: 'broken.png' }).getByRole('button', { name: 'Retry broken.png' })).toBeVisible();
  await expect(jobs.filter({ hasText: 'fine.png' })).toHaveAttribute('data-status', 'completed');
  await expect(page.getByText('Conversion complete')).toBeVisible();
  await expect(page.getByText('1 image converted, 1 failed.')).toBeVisible();
});

test('with optimised compression off the browser encodes straight from its bitmap: right formats, sizes and background', async ({ page }) => {
  await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
  await pickFiles(page, [FIXTURES.transparent, FIXTURES.jpeg]);
  await chooseFormat(page, 'JPG');
  await page.getByLabel('Background colour').fill('#00ff00');
  await convertAll(page, 2);
  const flattened = await decoded(await downloadJob(page, 'transparent.jpg'));
  const [r, g, b] = flattened.pixel(8, 32);
  expect(r).toBeLessThan(30);
  expect(g).toBeGreaterThan(225);
  expect(b).toBeLessThan(30);
  // An opaque source skips the flattening and is handed to the encoder as it is: the same picture comes out.
  const sourceLuma = (await decoded(fixtureBytes(FIXTURES.jpeg))).meanLuma();
  for (const output of OUTPUTS.filter((o) => o.format !== 'avif')) {
    if (output.format !== 'jpeg') {
      await page.getByRole('button', { name: 'Clear finished' }).click();
      await chooseFormat(page, output.label);
      await convertAll(page, 2);
    }
    const bytes = await downloadJob(page, `photo.${output.extension}`);
    expect(magicFormat(bytes)).toBe(output.format);
    const image = await decoded(bytes);
    expect([image.width, image.height]).toEqual([400, 300]);
    expect(Math.abs(image.meanLuma() - sourceLuma), output.label).toBeLessThan(2);
  }
});

/** Mean absolute difference per channel between two images, compared at 64 px wide. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const small = (bytes: Buffer) => sharp(bytes).resize(64, null, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [x, y] = [await small(a), await small(b)];
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

test('a resize to a fraction of a large JPEG decodes it smaller and gives the picture a full decode would, upright', async ({ page }) => {
  // Stored 1600 × 1200 with EXIF orientation 6: upright it is 1200 × 1600.
  const stored = await photo(1600, 1200, 21).jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer();
  const upright = await sharp(stored).rotate().toBuffer();
  await page.getByTestId('file-input').setInputFiles([
    { name: 'big.jpg', mimeType: 'image/jpeg', buffer: fixtureBytes(FIXTURES.photo12mp) },
    { name: 'turned.jpg', mimeType: 'image/jpeg', buffer: stored },
  ]);
  await page.getByRole('button', { name: 'Web 1920 wide' }).click();
  // JPG, the quickest encoder at 2 MP (a lossless PNG's search took most of this test): compared at 64 px wide, its
  // loss is far under the bound, and a wrong decode's (a picture turned, cropped or scaled wrongly) far over it.
  await chooseFormat(page, 'JPG');
  await convertAll(page, 2);
  const web = await downloadJob(page, 'big.jpg');
  expect(await sharp(web).metadata()).toMatchObject({ width: 1920, height: 1080 });
  const webReference = await sharp(fixtureBytes(FIXTURES.photo12mp)).extract({ left: 0, top: 375, width: 4000, height: 2250 }).resize(1920, 1080).png().toBuffer();
  expect(await meanDifference(web, webReference)).toBeLessThan(4);
  const turned = await downloadJob(page, 'turned.jpg');
  // 16:9 from a portrait: a centre crop 1200 × 675, then 1920 wide (an upscale: decoded whole).
  expect(await sharp(turned).metadata()).toMatchObject({ width: 1920, height: 1080 });
  const turnedReference = await sharp(upright).extract({ left: 0, top: 463, width: 1200, height: 675 }).resize(1920, 1080).png().toBuffer();
  expect(await meanDifference(turned, turnedReference)).toBeLessThan(4);
});

test('Tiny on a turned photo decodes it at an eighth-step size and keeps it upright', async ({ page }) => {
  const stored = await photo(1600, 1200, 22).jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer();
  await page.getByTestId('file-input').setInputFiles([{ name: 'turned.jpg', mimeType: 'image/jpeg', buffer: stored }]);
  await page.getByRole('button', { name: 'Tiny 512 wide' }).click();
  await chooseFormat(page, 'PNG');
  await convertAll(page, 1);
  const tiny = await downloadJob(page, 'turned.png');
  expect(await sharp(tiny).metadata()).toMatchObject({ width: 512, height: 683 });
  const reference = await sharp(stored).rotate().resize(512, 683, { fit: 'fill' }).png().toBuffer();
  expect(await meanDifference(tiny, reference)).toBeLessThan(4);
});

test('jpegli reads an opaque picture a strip at a time from its decoded frame: the same JPEG as from its pixels read whole', async ({ page }) => {
  // The same pixels twice: as RGB, which decodes to an opaque frame whose rows jpegli reads as it goes, and with an
  // alpha channel (every pixel opaque), which is read out whole and flattened first. A strip read from the wrong rows,
  // or a short last strip dropped, would give other bytes. 700 × 1100 is three of jpegli's strips, the last a short one.
  const pixels = photoPixels(700, 1100, 33);
  const raw = { raw: { width: 700, height: 1100, channels: 3 as const } };
  await page.getByTestId('file-input').setInputFiles([
    { name: 'opaque.png', mimeType: 'image/png', buffer: await sharp(pixels, raw).png().toBuffer() },
    { name: 'with-alpha.png', mimeType: 'image/png', buffer: await sharp(pixels, raw).ensureAlpha(1).png().toBuffer() },
  ]);
  await chooseFormat(page, 'JPG');
  await convertAll(page, 2);
  const files = await downloadAllZip(page);
  const [fromRows, fromWhole] = [files['opaque.jpg']!, files['with-alpha.jpg']!];
  expect((await sharp(fromRows).metadata()).isProgressive).toBe(true);
  expect(Buffer.compare(fromRows, fromWhole)).toBe(0);
  expect(await meanDifference(fromRows, await sharp(pixels, raw).png().toBuffer())).toBeLessThan(4);
});

/**
 * What "Optimised compression" (on by default) does for each format a browser also encodes, against the browser's
 * encoder on the same photo. JPG's optimised encoder (jpegli) keeps the browser's look at a slider setting, not its
 * bytes: on photographs it makes smaller files (npm run bench:encoders -- --look), but on this fixture's uniform grain,
 * which the browser's tables smear away and jpegli keeps, it may not; so the test shows that jpegli ran, by its
 * progressive frame. WebP's stays the browser's own libwebp, whose WASM build saved nothing at an equal look.
 */
const OPTIMISED: Record<'jpeg' | 'png' | 'webp', { claim: string; check: (optimised: Buffer, browser: Buffer) => Promise<void> }> = {
  jpeg: {
    claim: "a progressive JPG (jpegli) where the browser's encoder makes a baseline one",
    check: async (optimised, browser) => {
      expect((await sharp(optimised).metadata()).isProgressive).toBe(true);
      expect((await sharp(browser).metadata()).isProgressive).toBe(false);
    },
  },
  png: {
    claim: "a smaller PNG than the browser's encoder (oxipng)",
    check: async (optimised, browser) => expect(optimised.length).toBeLessThan(browser.length),
  },
  webp: {
    claim: "the browser's own WebP, byte for byte (libwebp's WASM build saved nothing)",
    check: async (optimised, browser) => expect(Buffer.compare(optimised, browser)).toBe(0),
  },
};

const OPTIMISED_OUTPUTS = OUTPUTS.filter((o) => o.format in OPTIMISED);

test(`the default "Optimised compression" makes, for ${OPTIMISED_OUTPUTS.map(({ label }) => label).join(', ')}: ${OPTIMISED_OUTPUTS.map(({ format }) => OPTIMISED[format as keyof typeof OPTIMISED].claim).join('; ')}; each decodes`, async ({ page }) => {
  await pickFiles(page, [FIXTURES.largeJpeg]);
  // Each format in the same page, one after the other: its workers keep the codecs they compiled.
  for (const output of OPTIMISED_OUTPUTS) {
    const { check } = OPTIMISED[output.format as keyof typeof OPTIMISED];
    await test.step(output.label, async () => {
      await page.getByRole('switch', { name: /Optimised compression/ }).check();
      await chooseFormat(page, output.label);
      await convertAll(page, 1);
      await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
      await convertAll(page, 2);
      const files = await downloadAllZip(page);
      const optimised = Buffer.from(files[`large.${output.extension}`]!);
      const browser = Buffer.from(files[`large (2).${output.extension}`]!);
      for (const bytes of [optimised, browser]) {
        expect(magicFormat(bytes)).toBe(output.format);
        expect(await sharp(bytes).metadata()).toMatchObject({ width: 1200, height: 900 });
      }
      await check(optimised, browser);
      await page.getByRole('button', { name: 'Clear finished' }).click();
      await expect(page.getByTestId('job')).toHaveCount(0);
    });
  }
});
