/**
 * Injected into the app's page before it loads (the bench only): the same observers the baseline pages use,
 * plus every tap's latency (Event Timing), when Convert was clicked, when the run finished, and when the zip download was triggered.
 */
export function instrumentApp(): void {
  const bench = {
    convertAt: 0,
    /** Jobs completed or failed, from the action bar's "Finished: N of N done" (a long list keeps only rows near the screen). */
    settled: 0,
    /** When the action bar said the run finished. */
    finishedAt: 0,
    zipAt: 0,
    longTasks: [] as { start: number; duration: number }[],
    frames: [] as { start: number; duration: number; blocking: number }[],
    /** Event Timing: each input event's time from input to the next paint, by interaction (a tap is one). */
    events: [] as { name: string; interactionId: number; start: number; duration: number; processingStart: number; processingEnd: number }[],
  };
  (window as unknown as { __bench: typeof bench }).__bench = bench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      bench.frames.push({ start: e.startTime, duration: e.duration, blocking: (e as unknown as { blockingDuration: number }).blockingDuration });
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
