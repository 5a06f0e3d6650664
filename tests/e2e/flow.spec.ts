import { expect, test } from './shared-page.ts';
import sharp from 'sharp';
import { ESTIMATE_CAP } from '../../src/conversion/jobs.ts';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { ALONE, axe, chooseFormat, convertButton, enterEmail, fileCard, fixtureBytes, holdRequests, openConverter, pickFiles } from './helpers.ts';
import { convertAll, downloadAllZip, downloadJob } from './convert-helpers.ts';

/** The flow around a batch: what Convert offers, what it says when it cannot, and where focus goes. */

const jobs = (page: import('@playwright/test').Page) => page.getByTestId('job');

/**
 * Keeps a batch to AVIF converting until the returned function is called: the AVIF encoder's WebAssembly is held on
 * its way to the workers, so every job waits, with its bar and Cancel, under "Converting… 0 of N done". A page to
 * look at mid-run, without a 12 MP encode to make the run last (seconds of both cores on a slow host).
 */
const holdAvifEncoder = (page: import('@playwright/test').Page) => holdRequests(page, '**/avif_enc*.wasm');

test('a second Convert with unchanged settings makes no job; after changing quality every file converts again', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.png]);
  await convertAll(page, 2);
  await expect(fileCard(page, FIXTURES.jpeg).getByText('Converted', { exact: true })).toBeVisible();
  await expect(fileCard(page, FIXTURES.png).getByText('Converted', { exact: true })).toBeVisible();
  await expect(convertButton(page)).toBeDisabled();
  await expect(convertButton(page)).toHaveText('Convert 0 images');
  await expect(convertButton(page)).toHaveAccessibleDescription('All converted with these settings. Change a setting to convert again.');
  await expect(jobs(page)).toHaveCount(2);

  await page.getByLabel('Quality', { exact: true }).fill('60');
  await expect(convertButton(page)).toHaveText('Convert 2 images again with new settings');
  await expect(fileCard(page, FIXTURES.jpeg).getByText('Ready to convert')).toBeVisible();
  await convertButton(page).click();
  await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(4);
  expect(Object.keys(await downloadAllZip(page))).toHaveLength(4);

  // Back to the first settings: those outputs exist, so nothing is converted twice.
  await page.getByLabel('Quality', { exact: true }).fill('80');
  await expect(convertButton(page)).toBeDisabled();
});

test('a file added after a run is converted alone', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg]);
  await convertAll(page, 1);
  await pickFiles(page, [FIXTURES.secondJpeg]);
  await expect(convertButton(page)).toHaveText('Convert 1 image');
  await convertButton(page).click();
  await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(2);
  await expect(jobs(page).filter({ hasText: FIXTURES.secondJpeg })).toHaveCount(1);
  await expect(jobs(page).filter({ hasText: FIXTURES.jpeg })).toHaveCount(1);
});

test('"Target file size" on with no size is a field error, and Convert waits for a value', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg]);
  await enterEmail(page);
  await page.getByRole('switch', { name: /Target file size/ }).check();
  const size = page.getByLabel('Target size (KB)');
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  await expect(size).toHaveAccessibleDescription('Enter a size in KB, or turn Target file size off.');
  await expect(convertButton(page)).toBeDisabled();
  await expect(convertButton(page)).toHaveAccessibleDescription('Enter a target size in KB, or turn Target file size off.');
  await size.fill('50');
  await expect(size).not.toHaveAttribute('aria-invalid', 'true');
  await expect(convertButton(page)).toBeEnabled();
});

test('focus stays on something visible: the batch progress after Convert, the next card after Remove', async ({ freshPage: page }) => {
  await openConverter(page);
  const release = await holdAvifEncoder(page);
  await pickFiles(page, [FIXTURES.secondJpeg, FIXTURES.jpeg, FIXTURES.png]);
  await expect(page.getByText('Ready to convert')).toHaveCount(3);
  await page.getByRole('button', { name: `Remove ${FIXTURES.jpeg}` }).focus();
  await page.keyboard.press('Enter');
  await expect(fileCard(page, FIXTURES.jpeg)).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Remove ${FIXTURES.png}` })).toBeFocused();
  await page.keyboard.press('Enter');
  // The last card gone: focus goes to the card before it.
  await expect(page.getByRole('button', { name: `Remove ${FIXTURES.secondJpeg}` })).toBeFocused();

  await page.getByRole('radio', { name: 'AVIF', exact: true }).check();
  await enterEmail(page);
  await convertButton(page).focus();
  await page.keyboard.press('Enter');
  const status = page.getByRole('status').filter({ hasText: /Converting… 0 of 1 done|Finished/ });
  await expect(status).toBeFocused();
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  release();
  await expect(page.getByText('Finished: 1 of 1 done')).toBeVisible();
  expect((await axe(page).disableRules(['meta-viewport']).analyze()).violations).toEqual([]);
});

test('Remove of the only card sends focus to the drop zone', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg]);
  await page.getByRole('button', { name: `Remove ${FIXTURES.jpeg}` }).click();
  await expect(page.getByTestId('drop-zone')).toBeFocused();
});

async function inViewport(page: import('@playwright/test').Page, locator: import('@playwright/test').Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width;
}

for (const viewport of [
  { name: 'a phone', width: 390, height: 844 },
  { name: 'a desktop', width: 1280, height: 900 },
]) {
  test(`on ${viewport.name}, Convert is on screen with the page at the top, and the batch's progress wherever it is scrolled`, async ({ freshPage: page }) => {
    await openConverter(page);
    await page.setViewportSize(viewport);
    const release = await holdAvifEncoder(page);
    await pickFiles(page, [FIXTURES.secondJpeg, FIXTURES.jpeg, FIXTURES.png]);
    await expect(page.getByText('Ready to convert')).toHaveCount(3);
    await enterEmail(page);
    await page.getByRole('radio', { name: 'AVIF', exact: true }).check();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(convertButton(page)).toBeVisible();
    expect(await inViewport(page, convertButton(page))).toBe(true);
    if (viewport.width >= 960) {
      // Files, settings and Convert in one view on a desktop.
      expect(await inViewport(page, page.locator('.file-grid'))).toBe(true);
      expect(await inViewport(page, page.getByRole('heading', { name: 'Conversion Settings' }))).toBe(true);
    }
    await convertButton(page).click();
    const progress = page.getByRole('status').filter({ hasText: /^Converting… \d+ of 3 done/ });
    await expect(progress).toBeVisible();
    for (const scroll of ['top', 'middle', 'bottom'] as const) {
      await page.evaluate((where) => {
        const height = document.documentElement.scrollHeight - window.innerHeight;
        window.scrollTo(0, where === 'top' ? 0 : where === 'middle' ? height / 2 : height);
      }, scroll);
      expect(await inViewport(page, progress), `progress on screen with the page scrolled to the ${scroll}`).toBe(true);
    }
    release();
    await expect(page.getByRole('status').filter({ hasText: 'Finished: 3 of 3 done' })).toBeVisible();
    // Download All is in the bar, on screen, and the completion toast is not over it.
    const downloadAll = page.getByRole('region', { name: 'Convert' }).getByRole('button', { name: 'Download All (.zip)' });
    const toast = page.getByRole('status').filter({ hasText: 'Conversion complete' });
    await expect(toast).toBeVisible();
    expect(await inViewport(page, downloadAll)).toBe(true);
    // The bar grows as the run ends (its hint) and the toasts move up with it, a frame later.
    const overlap = async () => {
      const [button, toastBox] = [(await downloadAll.boundingBox())!, (await toast.boundingBox())!];
      return toastBox.x < button.x + button.width && button.x < toastBox.x + toastBox.width && toastBox.y < button.y + button.height && button.y < toastBox.y + toastBox.height;
    };
    await expect.poll(overlap, { message: 'the completion toast covers Download All' }).toBe(false);
    const onTop = await downloadAll.evaluate((element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return element.contains(document.elementFromPoint(x + width / 2, y + height / 2));
    });
    expect(onTop).toBe(true);
  });
}

test('on a phone the action bar leaves most of the screen to the page in every state, and its buttons show their whole labels', async ({ freshPage: page }) => {
  await openConverter(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const bar = page.getByRole('region', { name: 'Convert' });
  const expectCompact = async (state: string) => {
    const { height } = (await bar.boundingBox())!;
    expect(height, `the bar's height ${state}`).toBeLessThanOrEqual(844 * 0.3);
    const clipped = await bar.getByRole('button').evaluateAll((buttons) =>
      buttons.filter((button) => button.scrollWidth > button.clientWidth + 1 || button.scrollHeight > button.clientHeight + 1).map((button) => button.textContent),
    );
    expect(clipped, `buttons whose label overflows ${state}`).toEqual([]);
  };
  await expectCompact('with no files');
  const release = await holdAvifEncoder(page);
  await pickFiles(page, [FIXTURES.secondJpeg, FIXTURES.jpeg]);
  await expect(page.getByRole('button', { name: 'Enter your e-mail address to convert.' })).toBeVisible();
  await expectCompact('asking for the e-mail address');
  await enterEmail(page);
  await page.getByRole('radio', { name: 'AVIF', exact: true }).check();
  await expect(convertButton(page)).toBeEnabled();
  await expectCompact('ready to convert');
  await convertButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: /^Converting… \d+ of 2 done/ })).toBeVisible();
  await expectCompact('while converting');
  release();
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 2 of 2 done' })).toBeVisible();
  await expectCompact('once the run has finished');
});

test('on a phone, the bar\'s "Enter your e-mail address" takes the visitor to the field', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await pickFiles(page, [FIXTURES.jpeg]);
  await page.getByRole('button', { name: 'Enter your e-mail address to convert.' }).click();
  await expect(page.getByLabel('Email address')).toBeFocused();
  expect(await inViewport(page, page.getByLabel('Email address'))).toBe(true);
});

test('toasts can be dismissed, and "Invalid email" goes once the address is fixed', async ({ page }) => {
  await pickFiles(page, [FIXTURES.jpeg]);
  await page.getByRole('button', { name: 'Dismiss "Added 1 image"' }).click();
  await expect(page.getByText('Added 1 image')).toHaveCount(0);
  await enterEmail(page, 'not valid');
  await convertButton(page).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await enterEmail(page, 'ada@example.com');
  await expect(page.getByText('Invalid email')).toHaveCount(0);
});

test('on a phone toasts sit above the action bar; on a desktop in the top right corner, clear of the files', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await pickFiles(page, [FIXTURES.jpeg]);
  const toast = page.getByRole('status').filter({ hasText: 'Added 1 image' });
  await expect(toast).toBeVisible();
  // The bar's height changes as files arrive, and the toasts follow it a frame later.
  const gapAboveBar = async () => (await page.locator('.action-bar').boundingBox())!.y - (await toast.boundingBox().then((box) => box!.y + box!.height));
  await expect.poll(gapAboveBar).toBeGreaterThanOrEqual(0);
  expect((await toast.boundingBox())!.y).toBeGreaterThan(844 / 2);

  await page.setViewportSize({ width: 1280, height: 900 });
  await pickFiles(page, [FIXTURES.png]);
  const desktopToast = page.getByRole('status').filter({ hasText: 'Added 1 image' });
  await expect(desktopToast).toBeVisible();
  const box = await desktopToast.boundingBox();
  const grid = await page.locator('.file-grid').boundingBox();
  expect(box!.x).toBeGreaterThan(grid!.x + grid!.width);
  expect(box!.y).toBeLessThan(120);
});

test('a same-format conversion that would grow keeps the original bytes; with "Keep the original" off, or to another format, it says "+N% larger" and why', async ({ page }) => {
  // A WebP made at quality 5, converted to WebP at quality 100: the same picture in many more bytes.
  const rough = await sharp(fixtureBytes(FIXTURES.jpeg)).webp({ quality: 5 }).toBuffer();
  await page.getByTestId('file-input').setInputFiles([{ name: 'rough.webp', mimeType: 'image/webp', buffer: rough }]);
  await page.getByLabel('Quality', { exact: true }).fill('100');
  await expect(page.getByRole('switch', { name: /Keep the original when the output would be larger/ })).toBeChecked();
  await convertAll(page, 1);
  const kept = jobs(page).first();
  await expect(kept.getByText(/\(original kept: converted it was \+\d+% larger\)/)).toBeVisible();
  expect((await downloadJob(page, 'rough.webp')).equals(rough)).toBe(true);

  await page.getByRole('switch', { name: /Keep the original when the output would be larger/ }).uncheck();
  await convertButton(page).click();
  const grown = jobs(page).nth(1);
  await expect(grown).toHaveAttribute('data-status', 'completed');
  await expect(grown.getByText(/\(\+\d+% larger\)/)).toBeVisible();
  await expect(grown.getByText(/% saved/)).toHaveCount(0);
  // Chromium's canvas writes WebP at 100 % lossless.
  await expect(grown.getByTestId('grew-because')).toHaveText('Larger because this WebP is lossless: it keeps every pixel.');

  // To another format the source is never kept: the card says why the output grew, here the quality asked for, then
  // at the default quality the denser format the photo came in.
  await chooseFormat(page, 'JPG');
  await convertButton(page).click();
  const toJpeg = jobs(page).nth(2);
  await expect(toJpeg).toHaveAttribute('data-status', 'completed');
  await expect(toJpeg.getByTestId('grew-because')).toHaveText('Larger because quality 100 keeps more than the source did.');
  await page.getByLabel('Quality', { exact: true }).fill('80');
  await convertButton(page).click();
  const atDefault = jobs(page).nth(3);
  await expect(atDefault).toHaveAttribute('data-status', 'completed');
  await expect(atDefault.getByText(/\(\+\d+% larger\)/)).toBeVisible();
  await expect(atDefault.getByTestId('grew-because')).toHaveText('Larger because WebP stores photos in fewer bytes than JPG.');
});

test('a source with metadata is never handed back while "Strip metadata" is on', async ({ page }) => {
  const tagged = await sharp(fixtureBytes(FIXTURES.jpeg)).webp({ quality: 5 }).withExif({ IFD0: { Make: 'PixelTestCam' } }).toBuffer();
  await page.getByTestId('file-input').setInputFiles([{ name: 'tagged.webp', mimeType: 'image/webp', buffer: tagged }]);
  await page.getByLabel('Quality', { exact: true }).fill('100');
  await convertAll(page, 1);
  await expect(jobs(page).first().getByText(/\(\+\d+% larger\)/)).toBeVisible();
  const output = await downloadJob(page, 'tagged.webp');
  expect(output.equals(tagged)).toBe(false);
  expect((await sharp(output).metadata()).exif).toBeUndefined();
});

test('the preset chip in force shows as pressed', async ({ page }) => {
  await expect(page.getByRole('button', { name: 'Original size' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Web 1920 wide' }).click();
  await expect(page.getByRole('button', { name: 'Web 1920 wide' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Original size' })).toHaveAttribute('aria-pressed', 'false');
  await page.getByLabel('Width (px)').fill('1000');
  await expect(page.getByRole('button', { name: 'Web 1920 wide' })).toHaveAttribute('aria-pressed', 'false');
});

test('a 12 MP photo to a 17 MP AVIF: the job\'s bar moves at least every 2 seconds (two ticks) until the last points, which are the worker\'s', ALONE, async ({ freshPage: page }) => {
  await openConverter(page);
  await pickFiles(page, [FIXTURES.photo12mp]);
  await page.getByRole('radio', { name: 'AVIF', exact: true }).check();
  // Upscaled, so the job lasts long enough to watch at libavif's speed 8 (12 MP takes about 3 s here, 17 MP about
  // 10 s with the upscale: its bar's steps before the cap spanned 9.9 s, over twice the 4 s asked below).
  await page.getByLabel('Width (px)').fill('4800');
  await enterEmail(page);
  await convertButton(page).click();
  // Each change of the bar, [when, value], from Convert until the job ends (its last row: when it ended, and 100): the
  // whole job, since how its time splits between the upscale and the encode depends on the machine.
  const recorded = page.evaluate(
    () =>
      new Promise<[number, number][]>((resolve) => {
        const seen: [number, number][] = [];
        const timer = setInterval(() => {
          const job = document.querySelector<HTMLElement>('[data-testid="job"]');
          const value = job?.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
          if (value != null && Number(value) !== seen.at(-1)?.[1]) seen.push([performance.now(), Number(value)]);
          if (job?.dataset.status === 'completed' || job?.dataset.status === 'error') {
            clearInterval(timer);
            seen.push([performance.now(), 100]);
            resolve(seen);
          }
        }, 100);
      }),
  );
  // The job says what it is doing: most of this one is libavif encoding. The upscale before it takes as long as the
  // machine makes it (over 15 s on a busy one), so this waits for the stage to change, within the test's limit only.
  await expect(jobs(page).first().getByText('Encoding', { exact: true })).toBeVisible();
  // The batch line has a time left before any job has finished, from the job's expected time.
  await expect(page.getByRole('status').filter({ hasText: /^Converting… 0 of 1 done · about \d+ (s|min) left$/ })).toBeVisible();
  const changes = await recorded;
  await expect(jobs(page).first()).toHaveAttribute('data-status', 'completed');
  const log = `[ms since the first, value]: ${JSON.stringify(changes.map(([at, value]) => [Math.round(at - changes[0]![0]), value]))}`;
  // The gap after each change made by the estimate: once it reaches its cap, what is left is the worker's to say, and
  // a machine slower than the job's expected time (a busy one) keeps the bar there until the worker reports.
  const gaps = changes.slice(1).flatMap(([at], i) => (changes[i]![1] < ESTIMATE_CAP ? [at - changes[i]![0]] : []));
  expect(gaps.length, log).toBeGreaterThan(3);
  expect(gaps.reduce((sum, gap) => sum + gap, 0), log).toBeGreaterThan(4_000);
  // The estimate steps once a second and gains a point at least every 2 s, so the bar moves every one or two ticks:
  // 2 s apart at most, and a little more when a busy machine runs the ticks' timer late (a bound of exactly 2 s failed
  // once in a loaded run). A bar that stood still at 90 through the encode, as the spec's simulation did, fails it.
  expect(Math.max(...gaps), log).toBeLessThanOrEqual(2_500);
});

/**
 * Each state read on a phone's screen and on a desktop's, the window resized between the two readings (one batch for
 * both: a page of its own for each screen ran the same batch twice).
 */
const AXE_SCREENS = [
  { name: 'a phone', width: 390, height: 844 },
  { name: 'a desktop', width: 1280, height: 900 },
];

test(`axe finds no WCAG A/AA violation on ${AXE_SCREENS.map(({ name }) => name).join(' and on ')} in any state: idle, files, running, done`, async ({ freshPage: page }) => {
  await openConverter(page);
  // Axe reads colours as painted: a toast fading in or out has too little contrast for a moment (CI caught the
  // finishing toast's message half-faded, and later a toast that began to leave while axe was reading the page).
  // So a reading counts only if nothing that animates once ran before it ended; otherwise the page is read again.
  // In the page: `animatedSinceMark` turns true when anything starts to animate or transition.
  await page.evaluate(() => {
    const mark = () => ((window as unknown as { animatedSinceMark: boolean }).animatedSinceMark = true);
    document.addEventListener('animationstart', mark, true);
    document.addEventListener('transitionrun', mark, true);
  });
  /** In the page: nothing that animates once is running (an endless animation is part of how the page looks). */
  const still = () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity);
  const readOnEachScreen = async (state: string) => {
    const found: string[] = [];
    for (const { name, width, height } of AXE_SCREENS) {
      await page.setViewportSize({ width, height });
      found.push(...(await violations(`${state} on ${name}`)));
    }
    return found;
  };
  const violations = async (state: string) => {
    for (;;) {
      await page.waitForFunction(still);
      await page.evaluate(() => ((window as unknown as { animatedSinceMark: boolean }).animatedSinceMark = false));
      const { violations: found } = await axe(page).disableRules(['meta-viewport']).analyze();
      const animated = (await page.evaluate(() => (window as unknown as { animatedSinceMark: boolean }).animatedSinceMark)) || !(await page.evaluate(still));
      if (!animated) return found.map((v) => `${state}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    }
  };
  const found = [...(await readOnEachScreen('idle'))];
  const release = await holdAvifEncoder(page);
  await pickFiles(page, [FIXTURES.secondJpeg, FIXTURES.jpeg, FIXTURES.svg]);
  await expect(page.getByText('Ready to convert')).toHaveCount(2);
  await expect(page.getByText('Added 2 images', { exact: true })).toBeVisible();
  found.push(...(await readOnEachScreen('files')));
  await page.getByRole('radio', { name: 'AVIF', exact: true }).check();
  await enterEmail(page);
  await convertButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: /^Converting…/ })).toBeVisible();
  found.push(...(await readOnEachScreen('running')));
  release();
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 2 of 2 done' })).toBeVisible();
  await expect(page.getByText('Conversion complete', { exact: true })).toBeVisible();
  found.push(...(await readOnEachScreen('done')));
  expect(found).toEqual([]);
});
