import { useCallback, useEffect, useRef, type FocusEvent, type RefObject } from 'react';

/**
 * Keeps focus in an element whose focused button leaves the page with a render and takes the focus with it: a job's
 * Cancel as the job finishes, a long list's first items as the list's own code takes their place. When focus was on
 * such a button and went nowhere else, it goes to what `pick` finds in the element (given the button that went)
 * after each render of the element's component, and each time `restore` is called (by a child that renders on its
 * own). Returns the element's focus and blur handlers, and `restore`.
 */
export function useFocusKept<T extends HTMLElement>(element: RefObject<T | null>, pick: (element: T, lost: HTMLElement) => HTMLElement | null | undefined) {
  /** The button focused in the element; null once focus went elsewhere on purpose. */
  const focused = useRef<HTMLElement | null>(null);
  const pickNow = useRef(pick);
  pickNow.current = pick;
  const onFocus = useCallback((event: FocusEvent<T>) => {
    focused.current = event.target;
  }, []);
  const onBlur = useCallback((event: FocusEvent<T>) => {
    const button = event.target;
    // A tap elsewhere, a Tab out: the button is still in the page. One that went with a render is not.
    queueMicrotask(() => {
      if (button.isConnected && focused.current === button) focused.current = null;
    });
  }, []);
  const restore = useCallback(() => {
    // Nothing to do in almost every render (a row's state changing, the grid scrolled): nothing was focused in it.
    const lost = focused.current;
    if (!lost || lost.isConnected) return;
    const root = element.current;
    const active = document.activeElement;
    if (!root || (active && active !== document.body)) return;
    pickNow.current(root, lost)?.focus({ preventScroll: true });
  }, [element]);
  useEffect(restore);
  return { onFocus, onBlur, restore };
}
