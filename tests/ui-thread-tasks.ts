import type { Browser, Page } from '@playwright/test';

/** One event of a Chromium trace (the JSON `browser.stopTracing()` gives), as far as these readers need it. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time inside the event: its wall time (`dur`) less whatever it spent waiting for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: {
    name?: string;
    data?: Record<string, unknown>;
    beginData?: { dirtyObjects?: number; totalObjects?: number; partialLayout?: boolean };
    /** Where in Chromium's source a task was posted from (a RunTask event's). */
    src_file?: string;
    src_func?: string;
  };
}

/** The events of the renderer's main thread (the UI thread), in time order. */
export function uiThread(events: TraceEvent[]): TraceEvent[] {
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events.filter((e) => main.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts);
}

/** A task the UI thread ran: when it started (trace µs) and, in ms, its wall time, its CPU time and the garbage collector's share of that. */
export interface UiTask {
  ts: number;
  wallMs: number;
  cpuMs: number;
  gcCpuMs: number;
  /** What ran in it, outermost events only (`Layout 12/9`: wall/CPU ms), where the trace has the timeline's events. */
  inside: string;
  /** Where in Chromium's source the task was posted from (`base/allocator/partition_alloc_support.cc OnBackgrounded`). */
  postedFrom: string;
}

/** The trace categories uiTasks reads: the scheduler's tasks, and V8's (its collections among them). */
export const UI_TASK_CATEGORIES = ['toplevel', 'v8'];

const GARBAGE_COLLECTIONS = new Set(['MajorGC', 'MinorGC']);

/** The timeline's events (category devtools.timeline) that say what a task did. */
const TIMELINE_WORK = new Set(['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'ParseHTML', 'MajorGC', 'MinorGC']);

const ms = (us: number | undefined) => Math.round((us ?? 0) / 100) / 10;

/** Every task the UI thread ran, from the scheduler's RunTask events (the unit the Long Tasks API times). */
export function uiTasks(events: TraceEvent[]): UiTask[] {
  const ui = uiThread(events).filter((e) => e.ph === 'X');
  const collections = ui.filter((e) => GARBAGE_COLLECTIONS.has(e.name));
  const work = ui.filter((e) => TIMELINE_WORK.has(e.name));
  return ui
    .filter((e) => e.name === 'ThreadControllerImpl::RunTask')
    .map((task) => {
      const end = task.ts + (task.dur ?? 0);
      const gc = collections.filter((e) => e.ts >= task.ts && e.ts < end).reduce((sum, e) => sum + (e.tdur ?? 0), 0);
      let outerEnd = 0;
      const outer = work.filter((e) => {
        if (e.ts < task.ts || e.ts >= end || e.ts < outerEnd) return false;
        outerEnd = e.ts + (e.dur ?? 0);
        return true;
      });
      const inside = outer.filter((e) => (e.dur ?? 0) >= 500).map((e) => `${e.name} ${ms(e.dur)}/${ms(e.tdur)}`).join(', ');
      const postedFrom = [task.args?.src_file, task.args?.src_func].filter(Boolean).join(' ');
      return { ts: task.ts, wallMs: (task.dur ?? 0) / 1000, cpuMs: (task.tdur ?? 0) / 1000, gcCpuMs: gc / 1000, inside, postedFrom };
    });
}

/** What the Long Tasks API calls long: over 50 ms. */
export const LONG_TASK_MS = 50;

/**
 * Chromium's memory allocator's own tasks on the page's thread: PartitionAlloc's `OnBackgrounded`, posted 10 s ahead,
 * which hands free memory back to the system. No script or rendering of the page's runs in them; they cost what the
 * system charges for memory (52–91 ms of CPU at 4× on a host where first touching memory ran at 0.3 GB/s,
 * docs/testing.md).
 */
export const isAllocatorHousekeeping = (task: UiTask) => task.postedFrom.startsWith('base/allocator/');

/**
 * The CPU a task spent on the page's own work: its CPU time outside the garbage collector, and none in a task of the
 * allocator's housekeeping.
 */
export const ownWorkMs = (task: UiTask) => (isAllocatorHousekeeping(task) ? 0 : task.cpuMs - task.gcCpuMs);

/**
 * Records what the page's UI thread runs while `during` runs, and gives its tasks; with `timeline`, also what ran in
 * each (the timeline's events cost the page some time of their own: a few per cent of a task).
 */
export async function recordUiTasks(browser: Browser, page: Page, during: () => Promise<void>, { timeline = false } = {}): Promise<UiTask[]> {
  await browser.startTracing(page, { categories: timeline ? [...UI_TASK_CATEGORIES, 'devtools.timeline'] : UI_TASK_CATEGORIES });
  let trace: Buffer;
  try {
    await during();
  } finally {
    trace = await browser.stopTracing();
  }
  return uiTasks((JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents);
}

/**
 * Keeps the page's long animation frames from its first script on (an init script; call before the page opens), each
 * as a line with the scripts that ran in it and its rendering, for a long-task test's failure message. `mark()` says
 * how many there are now; `since(mark)` gives the lines of those that came after.
 */
export async function keepLongFrames(page: Page): Promise<{ mark: () => Promise<number>; since: (mark: number) => Promise<string[]> }> {
  await page.addInitScript(() => {
    const frames: string[] = [];
    (window as unknown as { __longFrames: string[] }).__longFrames = frames;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { scripts?: { invoker: string; duration: number }[]; renderStart: number })[]) {
        const scripts = (entry.scripts ?? []).map((s) => `${s.invoker} ${Math.round(s.duration)}ms`);
        frames.push(`${Math.round(entry.startTime)}+${Math.round(entry.duration)}ms, rendering ${Math.round(entry.startTime + entry.duration - entry.renderStart)}ms [${scripts.join('; ')}]`);
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  });
  const read = (from: number) => page.evaluate((start) => (window as unknown as { __longFrames: string[] }).__longFrames.slice(start), from);
  return { mark: async () => (await read(0)).length, since: read };
}
