import { useSyncExternalStore } from 'react';

const neverChanges = () => () => undefined;

/**
 * Whether the browser can do something (share files, write a folder), as the page shows it: false in the prerendered
 * page and while it hydrates (the build cannot know, and a difference would be a hydration mismatch), the browser's
 * answer after. `probe` is asked on each render of the caller: keep it cheap.
 */
export function useBrowserAbility(probe: () => boolean): boolean {
  return useSyncExternalStore(neverChanges, probe, () => false);
}
