/** At the next frame, or on a timer when the page is hidden (a hidden page gets no frames). Returns a cancel. */
export function onNextFrame(callback: () => void): () => void {
  if (typeof document !== 'undefined' && document.visibilityState === 'visible') {
    const frame = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
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
