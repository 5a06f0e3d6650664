/**
 * At the next frame, or on a timer when the page is hidden: a hidden page gets no frames until it is shown again,
 * and what waits for one (a batch's first jobs, a folder being written as outputs finish) should go on in a
 * background tab. Returns a cancel.
 */
export function onNextFrame(callback: () => void): () => void {
  if (typeof document === 'undefined' || document.visibilityState !== 'visible') {
    const timer = setTimeout(callback, 0);
    return () => clearTimeout(timer);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onHidden);
  };
  const run = () => {
    cancel();
    callback();
  };
  const frame = requestAnimationFrame(run);
  // Hidden before the frame came: it will not come.
  const onHidden = () => {
    if (document.visibilityState === 'visible') return;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    timer = setTimeout(run, 0);
  };
  document.addEventListener('visibilitychange', onHidden);
  return cancel;
}

/**
 * Once the next frame has rendered, in a task of its own: work that would otherwise add to the frame's task (a
 * render, a layout) runs after it. Returns a cancel.
 */
export function afterNextFrame(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancelFrame = onNextFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelFrame();
    clearTimeout(timer);
  };
}

/**
 * Runs `callback` once the page is idle (requestIdleCallback, at the latest after `timeoutMs`), or after `fallbackMs`
 * where the browser has no idle callbacks (Safari). Returns a cancel.
 */
export function whenIdle(callback: () => void, { timeoutMs, fallbackMs = 200 }: { timeoutMs?: number; fallbackMs?: number } = {}): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => callback(), timeoutMs === undefined ? undefined : { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, fallbackMs);
  return () => clearTimeout(timer);
}
