import { useCallback, useEffect, useRef } from 'react';

type Target = HTMLElement | null | undefined;

/**
 * Keeps a keyboard user's place when an item of a list is removed by its own button (a file's Remove, a job's
 * Cancel): focus goes to the item that takes its place (the new last one when the last went), or, the list empty, to
 * `whenEmpty` — not to the page, whose next Tab would start at its top. Items are found by id (`targetIn`): a long
 * list keeps only the items near the screen in the page. Returns the function to call with an item's id as its
 * removal is asked for.
 */
export function useFocusAfterRemoval(items: readonly { id: string }[], targetIn: (id: string) => Target, whenEmpty: () => Target): (id: string) => void {
  const itemsNow = useRef(items);
  itemsNow.current = items;
  const find = useRef({ targetIn, whenEmpty });
  find.current = { targetIn, whenEmpty };
  /** The removed item and where it was. */
  const removed = useRef<{ id: string; index: number } | null>(null);
  useEffect(() => {
    const pending = removed.current;
    // An earlier change's effect can run after the click and before the removal is rendered: wait for the removal.
    if (!pending || items.some((item) => item.id === pending.id)) return;
    removed.current = null;
    const next = items[Math.min(pending.index, items.length - 1)];
    (next ? find.current.targetIn(next.id) : find.current.whenEmpty())?.focus();
  }, [items]);
  return useCallback((id: string) => {
    removed.current = { id, index: itemsNow.current.findIndex((item) => item.id === id) };
  }, []);
}
