import { useWindowVirtualizer, windowScroll } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';

interface WindowListOptions {
  count: number;
  /** Pixels an item is taken to take until its ResizeObserver entry says. */
  estimate: number;
  gap: number;
  /** Side-by-side columns (a grid); 1 for a list. */
  lanes?: number;
  overscan: number;
  keyOf: (index: number) => string;
}

/**
 * A long list or grid that keeps only the items near the screen in the page (@tanstack/react-virtual, following the
 * window's scroll), for the queue and the file grid of a phone's 200 photos. It never reads layout in the middle of
 * a React commit: items are measured by their ResizeObserver entries (the default measured each in its ref callback),
 * the list's place in the page is read in the next frame, and the virtualizer's first scroll (to where the window
 * already is, on mount) is skipped — each of those forced a layout of the whole page inside a tap's commit.
 */
export function useWindowList<T extends HTMLElement>({ count, estimate, gap, lanes = 1, overscan, keyOf }: WindowListOptions) {
  const list = useRef<T>(null);
  const mounted = useRef(false);
  const [listTop, setListTop] = useState(0);
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => estimate,
    gap,
    lanes,
    overscan,
    scrollMargin: listTop,
    getItemKey: keyOf,
    measureElement: (_element, entry) => entry?.borderBoxSize[0]?.blockSize ?? estimate,
    scrollToFn: (offset, options, instance) => {
      if (!mounted.current) {
        mounted.current = true;
        return;
      }
      windowScroll(offset, options, instance);
    },
  });
  // What is above the list (the files, a phone's settings) can move it.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const top = Math.round((list.current?.getBoundingClientRect().top ?? 0) + window.scrollY);
      setListTop((before) => (before === top ? before : top));
    });
    return () => cancelAnimationFrame(frame);
  });
  return { list, virtualizer, listTop };
}
