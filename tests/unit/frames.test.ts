import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterNextFrame, onNextFrame } from '../../src/lib/frames.ts';

/** A visible page whose frames come when `frame()` is called, and which `hide()` sends to the background. */
function visiblePage() {
  const callbacks = new Map<number, FrameRequestCallback>();
  let next = 1;
  const visibility = new EventTarget();
  const document = {
    visibilityState: 'visible',
    addEventListener: visibility.addEventListener.bind(visibility),
    removeEventListener: visibility.removeEventListener.bind(visibility),
  };
  vi.stubGlobal('document', document);
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    callbacks.set(next, callback);
    return next++;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => callbacks.delete(id));
  return {
    frame() {
      const due = [...callbacks.values()];
      callbacks.clear();
      for (const callback of due) callback(0);
    },
    /** A hidden page gets no frames. */
    hide() {
      document.visibilityState = 'hidden';
      visibility.dispatchEvent(new Event('visibilitychange'));
    },
  };
}

describe('frames', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('onNextFrame runs at the frame on a visible page, and not once cancelled', () => {
    const page = visiblePage();
    const ran = vi.fn();
    onNextFrame(ran);
    const cancelled = vi.fn();
    onNextFrame(cancelled)();
    vi.runAllTimers();
    expect(ran).not.toHaveBeenCalled();
    page.frame();
    expect(ran).toHaveBeenCalledOnce();
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('afterNextFrame runs in a task after the frame, not in it', () => {
    const page = visiblePage();
    const ran = vi.fn();
    afterNextFrame(ran);
    page.frame();
    expect(ran).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(ran).toHaveBeenCalledOnce();
  });

  it('afterNextFrame can be cancelled before the frame and between the frame and its task', () => {
    const page = visiblePage();
    const before = vi.fn();
    const between = vi.fn();
    afterNextFrame(before)();
    const cancelBetween = afterNextFrame(between);
    page.frame();
    cancelBetween();
    vi.runAllTimers();
    expect(before).not.toHaveBeenCalled();
    expect(between).not.toHaveBeenCalled();
  });

  it('a page hidden while it waits for a frame runs what waited on a timer, once', () => {
    const page = visiblePage();
    const ran = vi.fn();
    afterNextFrame(ran);
    page.hide();
    vi.runAllTimers();
    expect(ran).toHaveBeenCalledOnce();
    page.frame();
    vi.runAllTimers();
    expect(ran).toHaveBeenCalledOnce();
  });

  it('a hidden page, which gets no frames, runs them on timers', () => {
    vi.stubGlobal('document', { visibilityState: 'hidden' });
    const ran = vi.fn();
    afterNextFrame(ran);
    vi.runAllTimers();
    expect(ran).toHaveBeenCalledOnce();
  });
});
