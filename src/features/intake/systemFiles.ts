import { SHARE_TARGET } from '../../../core/shareTarget.ts';
import { imagesOnly } from './imagesOnly.ts';

/**
 * Images the operating system hands the installed app: shared from another app (the manifest's share_target; the
 * service worker keeps them in a cache and opens the page at SHARE_TARGET.landing) or opened with it from a file
 * manager (file_handlers, delivered through window.launchQueue). Both end where a drop does: the intake's addFiles.
 */

interface LaunchParams {
  files?: readonly { getFile(): Promise<File> }[];
}

interface LaunchQueue {
  setConsumer(consumer: (params: LaunchParams) => void): void;
}

/** The files the service worker kept from a share, once: the cache is emptied and the address cleaned. */
export async function takeSharedFiles(): Promise<File[]> {
  const landing = new URL(SHARE_TARGET.landing, location.origin);
  const shared = [...landing.searchParams.keys()].every((key) => new URLSearchParams(location.search).has(key));
  if (!shared || location.pathname !== landing.pathname) return [];
  // A reload must not look again (or show "?shared" in the address bar).
  history.replaceState(history.state, '', location.pathname);
  if (!('caches' in window)) return [];
  const cache = await caches.open(SHARE_TARGET.cache);
  const files: File[] = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    await cache.delete(request);
    if (!response) continue;
    const name = decodeURIComponent(response.headers.get(SHARE_TARGET.nameHeader) ?? 'shared-image');
    const lastModified = Number(response.headers.get(SHARE_TARGET.modifiedHeader)) || Date.now();
    files.push(new File([await response.blob()], name, { type: response.headers.get('content-type') ?? '', lastModified }));
  }
  return imagesOnly(files);
}

/** Calls `add` with the images of each launch ("Open with" this app), the one that opened the page and any later. */
export function receiveLaunchedFiles(add: (files: File[]) => void): void {
  const launchQueue = (window as Window & { launchQueue?: LaunchQueue }).launchQueue;
  launchQueue?.setConsumer((params) => {
    if (!params.files?.length) return;
    void Promise.all(params.files.map((handle) => handle.getFile())).then((files) => {
      const images = imagesOnly(files);
      if (images.length > 0) add(images);
    });
  });
}
