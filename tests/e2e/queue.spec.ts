import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { ALONE, chooseFormat, convertButton, enterEmail, fixture, holdRequests, openConverter, pickFiles } from './helpers.ts';
import { throttlePageCpu } from '../phone-cpu.ts';
import { downloadAllZip, magicFormat } from './convert-helpers.ts';

const jobsIn = (page: Page, status: string) => page.locator(`[data-testid="job"][data-status="${status}"]`);

/**
 * Tells the page it has `cores` cores (so the pool's width does not depend on the machine running the test) and
 * records [when, jobs processing, jobs waiting] at every change, for jobStates.
 */
async function recordJobStates(page: Page, cores: number): Promise<void> {
  await page.addInitScript((cores) => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => cores });
    const states: [number, number, number][] = [];
    (window as unknown as { __states: typeof states }).__states = states;
    const count = (status: string) => document.querySelectorAll(`[data-testid="job"][data-status="${status}"]`).length;
    new MutationObserver(() => {
      const [processing, pending] = [count('processing'), count('pending')];
      const last = states.at(-1);
      if (last?.[1] !== processing || last[2] !== pending) states.push([performance.now(), processing, pending]);
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  }, cores);
}

/** `count` copies of the 12 MP photo under names of their own (trip-1.jpg, …), added and ready to convert. */
async function addCopiesOfPhoto(page: Page, count: number): Promise<void> {
  const photo = await import('node:fs').then((fs) => fs.readFileSync(fixture(FIXTURES.photo12mp)));
  await page.getByTestId('file-input').setInputFiles(Array.from({ length: count }, (_, i) => ({ name: `trip-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: photo })));
  await expect(page.getByText('Ready to convert')).toHaveCount(count);
}

const jobStates = (page: Page) => page.evaluate(() => (window as unknown as { __states: [number, number, number][] }).__states);

/** From the recorded states: a job waited while another ran, although the pool had a free worker, and no two ran at once. */
async function expectOneJobAtATime(page: Page): Promise<void> {
  const states = await jobStates(page);
  const log = `[when, processing, waiting]: ${JSON.stringify(states.map(([at, ...rest]) => [Math.round(at), ...rest]))}`;
  expect(states.some(([, processing, waiting]) => processing === 1 && waiting > 0), log).toBe(true);
  expect(Math.max(...states.map(([, processing]) => processing)), log).toBe(1);
}

test('cancel mid-conversion removes the job, focus goes to the row in its place, and the next job still completes', async ({ page }) => {
  await openConverter(page);
  // A 12 MP photo to AVIF takes long enough to be cancelled; three small ones queue behind it (pool of three).
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.photo12mp), fixture(FIXTURES.jpeg), fixture(FIXTURES.png), fixture(FIXTURES.webp)]);
  await expect(page.getByText('Ready to convert')).toHaveCount(4);
  await chooseFormat(page, 'AVIF');
  await enterEmail(page);
  await convertButton(page).click();
  await expect(page.getByRole('button', { name: 'Converting...' })).toBeDisabled();
  const big = page.getByTestId('job').filter({ hasText: FIXTURES.photo12mp });
  await expect(big).toHaveAttribute('data-status', 'processing');
  await expect(big.getByRole('progressbar')).toBeVisible();
  await page.getByRole('button', { name: `Cancel ${FIXTURES.photo12mp}` }).click();
  await expect(big).toHaveCount(0);
  // The keyboard's place is kept: on the first row's Cancel, or its Download if it has finished.
  await expect(page.getByTestId('job').first().locator(':focus')).toHaveAttribute('aria-label', /^(Cancel|Download) photo/);
  await expect(jobsIn(page, 'completed')).toHaveCount(3);
  await expect(page.getByTestId('job')).toHaveCount(3);
  await expect(page.getByText('3 images converted.')).toBeVisible();
  // The three converted files are done with these settings; only the cancelled one is left to convert.
  await expect(convertButton(page)).toHaveText('Convert 1 image');
  const files = await downloadAllZip(page);
  expect(Object.keys(files).sort()).toEqual(['photo (2).avif', 'photo (3).avif', 'photo.avif']);
  for (const bytes of Object.values(files)) expect(magicFormat(bytes)).toBe('avif');
});

test('a job that finishes while its Cancel has the focus hands the focus to its Download', async ({ page }) => {
  // The AVIF encoder's download held: the job waits, its Cancel takes the focus, then it finishes.
  const release = await holdRequests(page, '**/avif_enc*.wasm');
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg]);
  await chooseFormat(page, 'AVIF');
  await enterEmail(page);
  await convertButton(page).click();
  const cancel = page.getByRole('button', { name: `Cancel ${FIXTURES.jpeg}` });
  await cancel.focus();
  await expect(cancel).toBeFocused();
  release();
  await expect(page.getByTestId('job')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByRole('button', { name: 'Download photo.avif' })).toBeFocused();
  // Enter now downloads it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe('photo.avif');
});

test('when the page is starved during a batch (long tasks while jobs share the cores), the next jobs run one fewer at a time', ALONE, async ({ page }) => {
  // Three cores, so the pool is three wide whatever the machine running the test has.
  await recordJobStates(page, 3);
  await openConverter(page);
  await addCopiesOfPhoto(page, 6);
  // The browser's encoder: with a WASM encoder's heap in their cost, 12 MP jobs would run fewer at a time (the tests below).
  await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
  await enterEmail(page);
  await convertButton(page).click();
  // Jobs share the cores: three on a fast page, two where the page was slow as the batch started (a busy machine),
  // which is the pool leaving the page a core already; either way the page's long tasks now find it crowded.
  await expect.poll(() => jobsIn(page, 'processing').count()).toBeGreaterThanOrEqual(2);
  // Long tasks of the page's own, half a second apart, while three jobs run: what a starved page shows. They go on
  // until the first job ends, however long that takes on this machine, so the pool's answer is seen at that moment
  // (each pair restarts its 10 s of one job fewer).
  const { firstAt, lastAt } = await page.evaluate(async () => {
    // Each in a task of the page's own (a timer), as the Long Tasks API counts them.
    const busyTask = (ms: number) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          const until = performance.now() + ms;
          while (performance.now() < until);
          resolve();
        }),
      );
    const anyEnded = () => document.querySelector('[data-testid="job"][data-status="completed"]') !== null;
    let firstAt = 0;
    let lastAt = 0;
    while (!anyEnded()) {
      await busyTask(120);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await busyTask(120);
      lastAt = performance.now();
      firstAt ||= lastAt;
    }
    return { firstAt, lastAt };
  });
  await expect(jobsIn(page, 'completed')).toHaveCount(6);
  const states = await jobStates(page);
  const log = `[when, processing, waiting]: ${JSON.stringify(states.map(([at, ...rest]) => [Math.round(at - firstAt), ...rest]))}; starved until ${Math.round(lastAt - firstAt)}`;
  // The pool's 10 s of one job fewer: when a job ends, the next waits although a worker is free...
  const yielding = states.filter(([at]) => at > firstAt && at < lastAt + 9_000);
  expect(yielding.some(([, processing, waiting]) => processing === 2 && waiting > 0), log).toBe(true);
  // ...and from then on no more than two run at once.
  const from = yielding.findIndex(([, processing, waiting]) => processing === 2 && waiting > 0);
  expect(Math.max(...yielding.slice(from).map(([, processing]) => processing)), log).toBeLessThanOrEqual(2);
  expect(Object.keys(await downloadAllZip(page))).toHaveLength(6);
});

test('on a 2-core device whose page is slow (its CPU 6× slower, as a phone\'s), a batch runs one job at a time, leaving the page a core', ALONE, async ({ page }) => {
  await recordJobStates(page, 2);
  await openConverter(page);
  await addCopiesOfPhoto(page, 3);
  await chooseFormat(page, 'JPG');
  // The browser's encoder: the quickest batch.
  await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
  await enterEmail(page);
  await throttlePageCpu(page, 6);
  await convertButton(page).click();
  await expect(jobsIn(page, 'completed')).toHaveCount(3);
  // (At full speed the pool is as wide as the cores: the test above.)
  await expectOneJobAtATime(page);
  expect(Object.keys(await downloadAllZip(page))).toHaveLength(3);
});

for (const device of [
  { gb: 4, name: 'a 4 GB phone', runs: 'one at a time although the pool has three workers: two encoder heaps would not fit its budget' },
  { gb: 32, name: 'a 32 GB desktop', runs: 'three at once, one a worker: from 8 GB the budget has room for three encoder heaps' },
]) {
  test(`on ${device.name}, optimised JPG (jpegli), 12 MP photos convert ${device.runs}`, ALONE, async ({ page }) => {
    await page.addInitScript((gb) => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => gb, configurable: true }), device.gb);
    // Four cores, so the pool is three wide and never leaves the page a core, whatever the machine running the test.
    await recordJobStates(page, 4);
    await openConverter(page);
    await addCopiesOfPhoto(page, 3);
    await chooseFormat(page, 'JPG');
    await enterEmail(page);
    await convertButton(page).click();
    await expect(jobsIn(page, 'completed')).toHaveCount(3);
    if (device.gb <= 4) {
      await expectOneJobAtATime(page);
    } else {
      const states = await jobStates(page);
      expect(Math.max(...states.map(([, processing]) => processing)), JSON.stringify(states)).toBe(3);
    }
    const zip = await downloadAllZip(page);
    expect(Object.keys(zip).sort()).toEqual(['trip-1.jpg', 'trip-2.jpg', 'trip-3.jpg']);
    for (const bytes of Object.values(zip)) expect(magicFormat(bytes)).toBe('jpeg');
  });
}

test('cancelling every job during a run leaves the app usable: the next Convert converts', async ({ page }) => {
  await openConverter(page);
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.photo12mp), fixture(FIXTURES.largeJpeg), fixture(FIXTURES.jpeg)]);
  await expect(page.getByText('Ready to convert')).toHaveCount(3);
  await chooseFormat(page, 'AVIF');
  await enterEmail(page);
  await convertButton(page).click();
  await expect(page.getByTestId('job')).toHaveCount(3);
  for (const name of [FIXTURES.photo12mp, FIXTURES.largeJpeg, FIXTURES.jpeg]) {
    // A small job can finish before its Cancel is pressed (an AVIF of 400 × 300 takes a fraction of a second):
    // then there is nothing left to cancel, and it says Done. Which of the two the page shows decides, not how long a
    // click waited: the button is pressed in the same task that finds it, so the job cannot finish in between.
    const cancel = page.getByRole('button', { name: `Cancel ${name}` });
    const done = jobsIn(page, 'completed').filter({ hasText: name });
    await expect(cancel.or(done)).toBeVisible();
    const pressed = await page.evaluate((label) => {
      const button = document.querySelector<HTMLButtonElement>(`button[aria-label="${CSS.escape(label)}"]`);
      button?.click();
      return button !== null;
    }, `Cancel ${name}`);
    if (!pressed) await expect(done).toBeVisible();
  }
  await expect(jobsIn(page, 'pending')).toHaveCount(0);
  await expect(jobsIn(page, 'processing')).toHaveCount(0);
  await chooseFormat(page, 'JPG');
  await expect(convertButton(page)).toHaveText('Convert 3 images');
  await convertButton(page).click();
  await expect(page.locator('[data-testid="job"]').filter({ hasText: 'Converted to JPG' })).toHaveCount(3);
});

test('Clear all during a run leaves no hidden work: every listed job still ends, and the queue settles', async ({ page }) => {
  await openConverter(page);
  await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.largeJpeg), fixture(FIXTURES.jpeg), fixture(FIXTURES.png)]);
  await expect(page.getByText('Ready to convert')).toHaveCount(3);
  await chooseFormat(page, 'AVIF');
  await enterEmail(page);
  await convertButton(page).click();
  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByTestId('file-card')).toHaveCount(0);
  await expect(jobsIn(page, 'completed')).toHaveCount(3);
  const files = await downloadAllZip(page);
  expect(Object.keys(files).sort()).toEqual(['large.avif', 'photo (2).avif', 'photo.avif']);
});

/**
 * Records in the page (`window.__rows`) how many queue rows it has at each frame, from now until the batch of `batch`
 * has finished and, with `allRows`, every one of its rows is there (a long queue keeps only those near the screen).
 */
async function countRowsEachFrame(page: Page, batch: number, { allRows }: { allRows: boolean }): Promise<void> {
  await page.evaluate(({ batch, allRows }) => {
    const counts: number[] = [];
    (window as unknown as { __rows: number[] }).__rows = counts;
    const count = () => {
      counts.push(document.querySelectorAll('[data-testid="job"]').length);
      const finished = [...document.querySelectorAll('[role="status"]')].some((status) => status.textContent?.includes(`Finished: ${batch} of ${batch}`));
      if (!finished || (allRows && counts.at(-1)! < batch)) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  }, { batch, allRows });
}

test('a batch\'s queue comes a frame after Convert and its rows two a frame: no frame lays out the whole batch (on a phone, above Convert)', ALONE, async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openConverter(page);
  const tiny = await sharp({ create: { width: 48, height: 36, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
  await page.getByTestId('file-input').setInputFiles(Array.from({ length: 12 }, (_, i) => ({ name: `short-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: tiny })));
  await expect(convertButton(page)).toHaveText('Convert 12 images');
  await enterEmail(page);
  // How many rows the page has at each frame, from before Convert until all twelve are there.
  await countRowsEachFrame(page, 12, { allRows: true });
  // Where a visitor on a phone taps Convert: the page's end, the settings between it and the list.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await convertButton(page).click();
  const rows = page.getByTestId('job');
  await expect(rows).toHaveCount(12);
  // The rows can be in the document a moment before the frame that records them: wait for that frame.
  await page.waitForFunction(() => (window as unknown as { __rows: number[] }).__rows.at(-1) === 12);
  const counts = await page.evaluate(() => (window as unknown as { __rows: number[] }).__rows);
  const added = counts.slice(1).map((count, i) => count - counts[i]!);
  expect(Math.max(...added), `rows at each frame: ${counts.join(', ')}`).toBe(2);
  expect(added.filter((n) => n > 0).length, `rows at each frame: ${counts.join(', ')}`).toBe(6);
  await expect(rows.first()).toContainText('short-1.jpg');
  await expect(rows.last()).toContainText('short-12.jpg');
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 12 of 12 done' })).toBeVisible();
  // A list that shrinks shows what is left at once.
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect(rows).toHaveCount(0);
});

test('a long queue\'s rows come two a frame as well, its list\'s code fetched ahead of Convert (on a phone)', ALONE, async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openConverter(page);
  const tiny = await sharp({ create: { width: 48, height: 36, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();
  // 45 files: a queue of 40 or more keeps only the rows near the screen (VirtualJobList).
  const listFetched = page.waitForRequest(/VirtualJobList-[^/]*\.js$/);
  await page.getByTestId('file-input').setInputFiles(Array.from({ length: 45 }, (_, i) => ({ name: `long-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: tiny })));
  await expect(convertButton(page)).toHaveText('Convert 45 images');
  // Fetched while the page is idle after the files came, before any queue shows.
  await listFetched;
  await enterEmail(page);
  await countRowsEachFrame(page, 45, { allRows: false });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await convertButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 45 of 45 done' })).toBeVisible();
  const counts = await page.evaluate(() => (window as unknown as { __rows: number[] }).__rows);
  const added = counts.slice(1).map((count, i) => count - counts[i]!);
  expect(Math.max(...added), `rows at each frame: ${counts.join(', ')}`).toBe(2);
  // The long list's own rows, a screen's worth and more, not a stand-in's first eight.
  const rows = page.getByTestId('job');
  await expect(rows.first()).toHaveAttribute('data-index', /^\d+$/);
  expect(await rows.count()).toBeGreaterThan(8);
  expect(await rows.count()).toBeLessThan(45);
});

test('while a batch converts the screen stays on; after it, it is let go', async ({ page }) => {
  // A headless browser asks for the permission a visible tab has.
  await page.context().grantPermissions(['screen-wake-lock']);
  // The page's own requests and releases of the screen wake lock, as the browser answers them.
  await page.addInitScript(() => {
    const log: string[] = [];
    (window as unknown as { __wakeLog: string[] }).__wakeLog = log;
    const request = WakeLock.prototype.request;
    WakeLock.prototype.request = async function (this: WakeLock, type?: WakeLockType) {
      log.push('request');
      try {
        const sentinel = await request.call(this, type);
        log.push('granted');
        sentinel.addEventListener('release', () => log.push('released'));
        return sentinel;
      } catch (error) {
        log.push(`refused: ${(error as Error).name}`);
        throw error;
      }
    };
  });
  // The AVIF encoder's download held: the run goes on, its job unfinished, for as long as the test looks at it.
  const release = await holdRequests(page, '**/avif_enc*.wasm');
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg]);
  await chooseFormat(page, 'AVIF');
  await enterEmail(page);
  const wakeLog = () => page.evaluate(() => (window as unknown as { __wakeLog: string[] }).__wakeLog);

  await convertButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: /^Converting…/ })).toBeVisible();
  await expect.poll(wakeLog).toEqual(['request', 'granted']);
  await expect(jobsIn(page, 'completed')).toHaveCount(0);

  release();
  await expect(jobsIn(page, 'completed')).toHaveCount(1);
  await expect.poll(wakeLog).toEqual(['request', 'granted', 'released']);
});


test('a long queue restored while its list\'s code loads shows its first rows, and focus on one stays on its row when the list takes their place', async ({ page }) => {
  await openConverter(page);
  // 45 small photos: a queue of 40 or more keeps only the rows near the screen, with code fetched when first needed.
  const files = await Promise.all(
    Array.from({ length: 45 }, async (_, i) => ({
      name: `shot-${String(i).padStart(2, '0')}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp({ create: { width: 48, height: 36, channels: 3, background: { r: i * 5, g: 128, b: 255 - i * 5 } } }).jpeg().toBuffer(),
    })),
  );
  await page.getByTestId('file-input').setInputFiles(files);
  await enterEmail(page);
  await convertButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 45 of 45 done' })).toBeVisible();
  // The batch is kept on the device: a reload shows the finished queue, while the long list's code is held back.
  const releaseList = await holdRequests(page, '**/VirtualJobList-*.js');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Conversion Queue (45)' })).toBeVisible();
  await expect(page.getByTestId('job')).toHaveCount(8);
  const download = page.getByRole('button', { name: /^Download shot-03\./ });
  await download.focus();
  await expect(download).toBeFocused();
  const standIn = await download.elementHandle();
  releaseList();
  // The list has taken the first rows' place (the button is another element) and the focus is on its row's Download.
  await expect.poll(() => standIn!.evaluate((button) => button.isConnected)).toBe(false);
  await expect(page.getByTestId('job').first()).toHaveAttribute('data-index', '0');
  await expect(download).toBeFocused();
});

test('Cancel in a queue that turns short again sends focus to the row in its place, which comes a few rows a frame, however slowly (CPU 6× slower)', async ({ page }) => {
  // Two cores, and the AVIF encoder's download held: the first jobs hold the pool while the rest wait with a Cancel each.
  await recordJobStates(page, 2);
  await holdRequests(page, '**/avif_enc*.wasm');
  await openConverter(page);
  const tiny = await sharp({ create: { width: 48, height: 36, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
  await page.getByTestId('file-input').setInputFiles(Array.from({ length: 40 }, (_, i) => ({ name: `tiny-${String(i).padStart(2, '0')}.jpg`, mimeType: 'image/jpeg', buffer: tiny })));
  await expect(convertButton(page)).toHaveText('Convert 40 images');
  await chooseFormat(page, 'AVIF');
  await enterEmail(page);
  await convertButton(page).click();
  // Forty jobs: the long list, which keeps only the rows near the screen.
  await page.getByRole('heading', { name: 'Conversion Queue (40)' }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('job').first()).toHaveAttribute('data-index', '0');
  // A waiting job below the first three rows (the plain list's first frame), and the one after it, read in one task.
  const [cancelled, after] = await page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="job"]')];
    const nameAt = (index: number) => rows.find((row) => row.dataset.index === String(index))?.querySelector('.job__name')?.textContent ?? null;
    const waiting = rows.find((row) => row.dataset.status === 'pending' && Number(row.dataset.index) >= 4 && nameAt(Number(row.dataset.index) + 1));
    if (!waiting) return [null, null];
    waiting.querySelector<HTMLElement>('button[aria-label^="Cancel "]')!.focus();
    return [nameAt(Number(waiting.dataset.index)), nameAt(Number(waiting.dataset.index) + 1)];
  });
  expect(cancelled, 'a waiting job below the first rows, with a row after it').not.toBeNull();
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', `Cancel ${cancelled}`);
  // On a phone 6× slower, the list turns short seconds after the tap, and its rows come slowly.
  await throttlePageCpu(page, 6);
  await page.keyboard.press('Enter');
  // Thirty-nine: the plain list again, its rows back two a frame; the focus waits for the row in the cancelled one's place.
  await expect(page.getByRole('heading', { name: 'Conversion Queue (39)' })).toBeVisible();
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', new RegExp(`^(Cancel|Download) ${after!.replace(/\.jpg$/, '')}\\.`));
});

test('in a long queue what failed is found with "Show failed", says why, and "Retry failed" runs those again', async ({ page }) => {
  await openConverter(page);
  // Past the length from which the list keeps only the rows near the screen: 40 good pictures and 3 whose header
  // passes intake but whose pixels do not decode, among them.
  const good = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => ({ name: `good-${String(i).padStart(2, '0')}.png`, mimeType: 'image/png', buffer: await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: i * 6, g: 90, b: 160 } } }).png().toBuffer() })),
  );
  const header = (await sharp({ create: { width: 50, height: 40, channels: 3, background: '#000' } }).png().toBuffer()).subarray(0, 33);
  const broken = [7, 21, 35].map((at) => ({ at, file: { name: `broken-${at}.png`, mimeType: 'image/png', buffer: Buffer.concat([header, Buffer.alloc(400, at)]) } }));
  const files = [...good];
  for (const { at, file } of broken) files.splice(at, 0, file);
  await page.getByTestId('file-input').setInputFiles(files);
  await enterEmail(page);
  await convertButton(page).click();
  const status = page.getByRole('status').filter({ hasText: /^(Converting…|Finished:)/ });
  await expect(status).toHaveText(/^Converting… /);
  await expect(status).toHaveText('Finished: 43 of 43 done, 3 failed');

  const showFailed = page.getByRole('button', { name: 'Show failed (3)' });
  await expect(showFailed).toHaveAttribute('aria-pressed', 'false');
  await showFailed.click();
  await expect(showFailed).toHaveAttribute('aria-pressed', 'true');
  const rows = page.getByTestId('job');
  await expect(rows).toHaveCount(3);
  for (const { file } of broken) await expect(rows.filter({ hasText: file.name }).getByText('Failed to load image')).toBeVisible();
  // The heading still counts the whole queue.
  await expect(page.getByRole('heading', { name: 'Conversion Queue (43)' })).toBeVisible();

  // Retried, they run again (and fail again: their bytes are still broken); the list shows all while none is failed.
  await page.getByRole('button', { name: 'Retry failed' }).click();
  await expect(status).toHaveText('Finished: 3 of 3 done, 3 failed');
  await expect(page.getByRole('button', { name: 'Show failed (3)' })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: 'Show failed (3)' }).click();
  await expect(rows).toHaveCount(3);
  await page.getByRole('button', { name: 'Show failed (3)' }).click();
  await expect(page.locator('[data-testid="job"][data-status="completed"]').first()).toBeVisible();
});
