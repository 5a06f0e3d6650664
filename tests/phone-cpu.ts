import { execFileSync } from 'node:child_process';
import type { Locator, Page } from '@playwright/test';
import { chromiumThreadsNamed } from './chromium-processes.ts';
import { median } from '../src/lib/median.ts';

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

/** A compute loop (no allocation, no page faults, no DOM) of about 50 ms on this machine; gives its time in ms. */
const COMPUTE_LOOP = `(() => {
  const start = performance.now();
  let x = 1;
  for (let i = 0; i < 10_000_000; i++) x = (x * 1103515245 + 12345) | 0;
  if (x === 0.5) throw new Error('never');
  return performance.now() - start;
})()`;

/** The loop's median time, after a run that lets a new rate take hold (its thread starting, its first signals). */
async function loopMs(page: Page): Promise<number> {
  await page.evaluate(COMPUTE_LOOP);
  const runs: number[] = [];
  for (let i = 0; i < LOOP_RUNS; i++) runs.push((await page.evaluate(COMPUTE_LOOP)) as number);
  return median(runs);
}

/** Runs a measurement takes the median of: the page's own timers and idle work land in some. */
const LOOP_RUNS = 5;

/** How close to the slowdown asked the calibrated rate must bring the loop. */
const CALIBRATED_WITHIN = 0.05;
const CALIBRATION_ROUNDS = 4;

/**
 * Slows the page's main thread `slowdown` times (throttlePageCpu), at the DevTools rate that makes a compute loop run
 * `slowdown` times slower than unthrottled on this machine; gives that rate. Chromium's throttle busy-waits (rate − 1)
 * times the time since its last signal, and that time holds the signal's own cost: where a signal is cheap the rate is
 * the slowdown, but on a host where it is dear (a PVM guest, docs/testing.md) rate 4 ran the loop 4.7–6.1 times
 * slower, a phone slower than the one meant. The rate is found quiet, before what is measured.
 */
export async function slowPageCpu(page: Page, slowdown: number): Promise<{ rate: number; slowdownMeasured: number }> {
  await throttlePageCpu(page, 1);
  const unthrottled = await loopMs(page);
  let rate = slowdown;
  let closest: { rate: number; slowdownMeasured: number } | null = null;
  for (let round = 1; ; round++) {
    await throttlePageCpu(page, rate);
    const slowdownMeasured = (await loopMs(page)) / unthrottled;
    if (!closest || Math.abs(slowdownMeasured - slowdown) < Math.abs(closest.slowdownMeasured - slowdown)) closest = { rate, slowdownMeasured };
    if (Math.abs(slowdownMeasured - slowdown) <= CALIBRATED_WITHIN * slowdown || round === CALIBRATION_ROUNDS) break;
    rate = Math.min(2 * slowdown, Math.max(1, (rate * slowdown) / slowdownMeasured));
  }
  // Uncalibrated after every round (the host's speed moved between them): the closest rate, not the last one tried
  // (a bench run of 2026-12-01 kept the last, rate 3.07: a loop 4.86× slower for its 4× phone).
  if (closest.rate !== rate) await throttlePageCpu(page, closest.rate);
  return closest;
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
