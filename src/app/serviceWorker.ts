/**
 * The service worker (workers/sw.ts): registered once the page is idle after loading, so its 6.6 MB offline copy
 * never competes with the page on a slow link. A new version of the app installs in the background and waits; those
 * who subscribe hear that it is ready, with the function that lets it take over (the page then reloads into it).
 */

import { whenIdle } from '../lib/frames.ts';

type ApplyUpdate = () => void;

const updateListeners = new Set<(apply: ApplyUpdate) => void>();
let readyUpdate: ApplyUpdate | null = null;

/** Hears of a waiting new version (at once if one is already waiting). */
export function subscribeToUpdate(listener: (apply: ApplyUpdate) => void): () => void {
  updateListeners.add(listener);
  if (readyUpdate) listener(readyUpdate);
  return () => updateListeners.delete(listener);
}

async function register(): Promise<void> {
  const { Workbox } = await import('workbox-window');
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    readyUpdate = () => {
      // Once the new worker controls the page, the page is the old version's: load the new one.
      workbox.addEventListener('controlling', () => location.reload());
      workbox.messageSkipWaiting();
    };
    for (const listener of updateListeners) listener(readyUpdate);
  });
  await workbox.register();
}

export function registerServiceWorkerWhenIdle(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () => void register().catch((error: unknown) => console.error('The offline copy could not be set up:', error));
  const startWhenIdle = () => void whenIdle(start, { timeoutMs: 5000, fallbackMs: 1000 });
  if (document.readyState === 'complete') startWhenIdle();
  else window.addEventListener('load', startWhenIdle, { once: true });
}
