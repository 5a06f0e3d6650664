import { useCallback, useEffect, useRef } from 'react';

type Target = HTMLElement | null | undefined;

/**
 * Keeps a keyboard user's place when an item of a list is removed by its own button (a file's Remove, a job's
 * Cancel): focus goes to the item that takes its place (the new last one when the last went), or, the list empty, to
 * `whenEmpty` — not to the page, whose next Tab would start at its top. Items are found by id (`targetIn`): a long
 * list keeps only the items near the screen in the page. Returns the function to call with an item's id as its
 * removal is asked for. `filling`: the list is still adding its rows a few a frame, so the item in the removed one's
 * place may not be in the page yet however long that takes.
 */
export function useFocusAfterRemoval(items: readonly { id: string }[], targetIn: (id: string) => Target, whenEmpty: () => Target, filling = false): (id: string) => void {
  const itemsNow = useRef(items);
  itemsNow.current = items;
  const find = useRef({ targetIn, whenEmpty });
  find.current = { targetIn, whenEmpty };
  /** The removed item, where it was, and since when its place's item may be waited for (see below). */
  const removed = useRef<{ id: string; index: number; waitingSince?: number } | null>(null);
  // After every render, not only the items': a list that shows its rows a few a frame (the queue turning short again)
  // may show the item that takes the removed one's place some renders later.
  useEffect(() => {
    const pending = removed.current;
    // An earlier change's effect can run after the click and before the removal is rendered: wait for the removal.
    if (!pending || items.some((item) => item.id === pending.id)) return;
    const next = items[Math.min(pending.index, items.length - 1)];
    const target = next ? find.current.targetIn(next.id) : find.current.whenEmpty();
    const active = document.activeElement;
    // The moment counts from when the list shows the removal with all its rows, not from the click: on a slow phone
    // with every core encoding, the removal's render and the rows after it took over a second (CI, 2026-11-28).
    const now = performance.now();
    if (pending.waitingSince === undefined || filling) pending.waitingSince = now;
    // Waiting for the item to show is over once the focus has gone somewhere of the visitor's choosing, or a moment
    // after the list is whole (an item a long list does not show until it is scrolled to).
    const waiting = !target && next && (!active || active === document.body) && now - pending.waitingSince < SHOWS_WITHIN_MS;
    if (waiting) return;
    removed.current = null;
    target?.focus();
  });
  return useCallback((id: string) => {
    removed.current = { id, index: itemsNow.current.findIndex((item) => item.id === id) };
  }, []);
}

/** How long, once the list is whole, the item that takes a removed one's place may take to show (a long list's rows). */
const SHOWS_WITHIN_MS = 1000;
