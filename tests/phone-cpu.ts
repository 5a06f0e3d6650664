import { execFileSync } from 'node:child_process';
import type { Locator, Page } from '@playwright/test';
import { chromiumThreadsNamed } from './chromium-processes';

/**
 * Chromium's CPU throttle runs on a thread of the renderer's own: every 200 µs it signals the page's main thread,
 * which then busy-waits (rate − 1) times as long as it has run. That thread has a normal priority. On a 2-core
 * machine, while the other core was busy (the compositor and the browser's UI thread run at a higher priority, or a
 * worker), it waited milliseconds for a core, and the page ran at full speed meanwhile: in a 6× page, 1 to 3 of the
 * speed probe's 3 to 5 runs (pageSpeed.ts) took the 1.0 ms of an unthrottled page in a quarter of the batches, and
 * the app rightly took the page for a fast one. At real-time priority the thread runs on time: no such run in 16
 * batches.
 */
const THROTTLING_THREAD = 'CPUThrottlingTh';

let warned = false;

/**
 * Slows the page's main thread `rate` times, as a phone's slower core would be (DevTools' CPU throttling), and makes
 * the throttle hold while the machine's other cores are busy: its thread gets real-time priority (SCHED_FIFO). That
 * takes root or CAP_SYS_NICE; without it the throttle still works, but lapses now and then (a warning says so).
 */
export async function throttlePageCpu(page: Page, rate: number): Promise<void> {
  await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
  if (rate <= 1) return;
  // The renderer starts the thread as it takes the command, and the thread names itself once it runs: at once, or a
  // while later on a busy machine (the limit is for a thread that never comes).
  let threads: number[] = [];
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && threads.length === 0; ) {
    threads = chromiumThreadsNamed(THROTTLING_THREAD);
    if (threads.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (threads.length === 0) throw new Error(`No ${THROTTLING_THREAD} thread in Chromium's processes after Emulation.setCPUThrottlingRate`);
  for (const thread of threads) {
    try {
      execFileSync('chrt', ['--fifo', '--pid', '1', String(thread)], { stdio: 'pipe' });
    } catch (error) {
      if (!warned) console.warn(`The CPU throttle may lapse while other cores are busy: its thread kept a normal priority (chrt: ${String(error).trim()})`);
      warned = true;
      return;
    }
  }
}

/** How often a phone's thumb taps a setting while a batch runs, in the bench and the phone's end-to-end test. */
export const TAP_EVERY_MS = 600;

/**
 * Where to tap `locator`, with it scrolled to the middle of the screen: found before the CPU is throttled, so the
 * taps during a batch are plain touch events (Playwright's locators run their queries in the page, which on a
 * throttled page were long tasks of their own).
 */
export async function tapPoint(locator: Locator): Promise<{ x: number; y: number }> {
  return locator.evaluate((element) => {
    element.scrollIntoView({ block: 'center' });
    const { x, y, width, height } = element.getBoundingClientRect();
    return { x: x + width / 2, y: y + height / 2 };
  });
}
