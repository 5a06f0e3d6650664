import { useRef } from 'react';

/** Whether two maps hold the same values under the same keys. */
export function sameEntries<K, V>(a: ReadonlyMap<K, V>, b: ReadonlyMap<K, V>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value || !b.has(key)) return false;
  return true;
}

/**
 * The value this hook gave last time while `same` finds the new one equal to it, else the new one: a memoised child
 * given it then skips its render. A value remembered from a render React throws away is only ever equal to one given.
 */
export function useKeptWhileSame<T>(value: T, same: (kept: T, next: T) => boolean): T {
  const kept = useRef(value);
  if (kept.current !== value && !same(kept.current, value)) kept.current = value;
  return kept.current;
}
