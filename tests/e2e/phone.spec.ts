import { basename } from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { galleryPhotos } from '../corpus/sources';
import { slowPageCpu, TAP_EVERY_MS, tapPoint, throttlePageCpu } from '../phone-cpu';
import { isAllocatorHousekeeping, keepLongFrames, LONG_TASK_MS, ownWorkMs, recordUiTasks, type UiTask } from '../ui-thread-tasks';
import { downloadAllZip, magicFormat } from './convert-helpers';
import { ALONE, chooseFormat, convertButton, enterEmail, openConverter } from './helpers';

/**
 * A mid-range phone's screen and touch. No Playwright trace: it snapshots the page's DOM around every action, in the
 * page's own thread (16–86 ms tasks at 4× in which the snapshot's style reads laid the page out eight times).
 */
test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, trace: 'off' });

/**
 * Up to three tries. Quiet, no run of the landed build had a task over 36 ms of CPU (10 runs); with a CPU-busy process
 * beside the test (`stress-ng --cpu 1`), the same frames' layout and paint took up to 1.7× their CPU (a JS loop's did
 * not move: memory-bound work slows beside a neighbour) and a third of the runs had a task of 50–61 ms. A cause of the
 * page's own (all of a batch's rows laid out in one frame, say) shows in every try.
 */
test.describe.configure({ retries: 2 });

/** How much slower a cheap phone's core is than this machine's (slowPageCpu finds the DevTools rate that does it). */
const PHONE_SLOWDOWN = 4;

test(`a phone's batch of real photos (CPU ${PHONE_SLOWDOWN}× slower, a setting tapped through it): none of the page's own tasks takes over ${LONG_TASK_MS} ms`, ALONE, async ({ browser, page }) => {
  test.setTimeout(300_000);
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 4 }));
  // Long animation frames name the scripts that ran, for the failure message.
  const longFrames = await keepLongFrames(page);
  const photos = galleryPhotos();
  await openConverter(page);
  await chooseFormat(page, 'JPG');
  // The browser's encoder: the quickest batch, so the page's share of the work is the largest.
  await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
  await enterEmail(page);
  await page.getByTestId('file-input').setInputFiles(photos);
  // Adding is over once every preview is made; what is measured is the conversion.
  await expect(page.getByTestId('selection-summary')).toHaveAttribute('data-previews', String(photos.length));
  await expect(convertButton(page)).toBeEnabled();
  const convert = await tapPoint(page.getByRole('button', { name: `Convert ${photos.length} images` }));
  const rotate = await tapPoint(page.getByRole('button', { name: 'Rotate right' }));
  const { rate } = await slowPageCpu(page, PHONE_SLOWDOWN);
  test.info().annotations.push({ type: 'DevTools CPU rate', description: rate.toFixed(2) });
  // A quiet second: the throttle takes hold and what adding started (the estimate, the codecs' warm-up) ends.
  await page.waitForTimeout(1000);
  const framesBefore = await longFrames.mark();
  let taps = 0;
  const tasks = await recordUiTasks(browser, page, async () => {
    await page.touchscreen.tap(convert.x, convert.y);
    // A property read every 250 ms, not a locator: on a throttled page a locator's queries are long tasks of their own.
    let finished = false;
    const done = page
      .waitForFunction(() => (document.querySelector('.action-bar__status')?.textContent ?? '').startsWith('Finished: '), undefined, { polling: 250, timeout: 0 })
      .finally(() => (finished = true));
    // "Rotate right" is a real setting change (the panel, the plan and the cards' states follow) while the batch runs.
    while (!finished) {
      await page.touchscreen.tap(rotate.x, rotate.y);
      taps++;
      await Promise.race([done, page.waitForTimeout(TAP_EVERY_MS)]);
    }
    await done;
  }, { timeline: true });
  await throttlePageCpu(page, 1);
  const frames = await longFrames.since(framesBefore);
  // A task is timed by the CPU the page's own work took in it (ui-thread-tasks.ts): under DevTools' throttle that holds
  // the throttle's wait, as a phone's slower core would; it leaves out the time the thread waited for one of this
  // machine's two cores, which the workers hold. Chromium's allocator's own tasks run none of the page's work.
  const long = tasks.filter((task) => ownWorkMs(task) > LONG_TASK_MS);
  const housekeeping = tasks.filter((task) => isAllocatorHousekeeping(task) && task.cpuMs > LONG_TASK_MS);
  const describe = (list: UiTask[]) => list.map((task) => `at ${Math.round((task.ts - tasks[0]!.ts) / 1000)} ms: ${Math.round(task.wallMs)} ms (CPU ${Math.round(task.cpuMs)} ms, of it the GC's ${Math.round(task.gcCpuMs)}: ${task.inside || task.postedFrom})`).join('; ') || 'none';
  expect(describe(long), `${taps} taps at DevTools' rate ${rate.toFixed(2)}; the allocator's own, not counted: ${describe(housekeeping)}; long animation frames: ${frames.join(' | ') || 'none'}`).toBe('none');
  expect(taps).toBeGreaterThan(0);

  // The batch ran whole, kept on the device, and every photo came out a JPEG of its own size.
  await expect(page.locator('html')).toHaveAttribute('data-batch', 'device');
  await expect(page.getByTestId('job').and(page.locator('[data-status="completed"]'))).toHaveCount(photos.length);
  const zip = await downloadAllZip(page);
  expect(Object.keys(zip).sort()).toEqual(photos.map((path) => basename(path)).sort());
  for (const path of photos) {
    const output = zip[basename(path)]!;
    expect(magicFormat(output)).toBe('jpeg');
    const [source, converted] = await Promise.all([sharp(path).metadata(), sharp(output).metadata()]);
    expect([converted.width, converted.height], basename(path)).toEqual([source.width, source.height]);
  }
});
