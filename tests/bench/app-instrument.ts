import type { PageRecord } from './figures.ts';

/** The app page's record: a page's (figures.ts), and the jobs settled and when the zip download began. */
export interface AppRecord extends PageRecord {
  /** Jobs completed or failed, from the action bar's "Finished: N of N done" (a long list keeps only rows near the screen). */
  settled: number;
  zipAt: number;
  /** When a Compare button was tapped, and when the dialog had drawn both sides (its view's data-drawn). */
  compareAt: number;
  comparedAt: number;
}

/** The record a page's observers keep, as `T`: `page.evaluate(readRecord<AppRecord>)`. */
export const readRecord = <T extends PageRecord>(): T => (window as unknown as { __bench: T }).__bench;

/**
 * Injected into the app's page before it loads (the bench only): the same observers the baseline pages use,
 * plus every tap's latency (Event Timing), when Convert was clicked, when the run finished, and when the zip download was triggered.
 */
export function instrumentApp(): void {
  const bench: AppRecord = { convertAt: 0, settled: 0, finishedAt: 0, zipAt: 0, compareAt: 0, comparedAt: 0, longTasks: [], frames: [], events: [] };
  (window as unknown as { __bench: AppRecord }).__bench = bench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      bench.frames.push({ start: e.startTime, duration: e.duration });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEventTiming[]) {
      if (e.interactionId) bench.events.push({ name: e.name, interactionId: e.interactionId, start: e.startTime, duration: e.duration, processingStart: e.processingStart, processingEnd: e.processingEnd });
    }
  }).observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as HTMLElement).closest('button');
      if (button && /^Convert \d+ image/.test(button.textContent ?? '')) bench.convertAt = performance.now();
      if (button && (button.getAttribute('aria-label') ?? '').startsWith('Compare ')) {
        bench.compareAt = event.timeStamp;
        bench.comparedAt = 0;
        const drawn = new MutationObserver(() => {
          if (document.querySelector('[data-drawn="original output"]') === null) return;
          bench.comparedAt = performance.now();
          drawn.disconnect();
        });
        drawn.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'] });
      }
    },
    true,
  );
  const finishing = new MutationObserver(() => {
    const finished = /^Finished: (\d+) of \d+ done/.exec(document.querySelector('.action-bar__status')?.textContent ?? '');
    if (!finished) return;
    bench.finishedAt = performance.now();
    bench.settled = Number(finished[1]);
    // Once is all the bench needs; watching on would be work of its own in the page being measured.
    finishing.disconnect();
  });
  finishing.observe(document, { subtree: true, childList: true, characterData: true });
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    if (this.download.endsWith('.zip')) bench.zipAt = performance.now();
    return click.call(this);
  };
}
