/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { withCrossOriginIsolation } from '../core/isolation.ts';
import { SHARE_TARGET } from '../core/shareTarget.ts';

/**
 * The service worker: the offline copy (the shell and every codec the app can load, listed by the build), the share
 * target, and updates that wait for the page's word. A new version installs in the background and waits; the page
 * offers "Reload" when no batch is running and, when the visitor takes it, asks this worker to take over
 * (SKIP_WAITING). The first install has nothing to wait for: it takes over the page at once, so the first visit
 * already works offline.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Parameters<typeof precacheAndRoute>[0] };

/** Files shared from another app arrive as a POST navigation: kept for the page, which is sent to look for them. */
async function receiveShare(request: Request): Promise<Response> {
  const form = await request.formData();
  const files = form.getAll(SHARE_TARGET.field).filter((value): value is File => value instanceof File);
  const cache = await caches.open(SHARE_TARGET.cache);
  await Promise.all(
    files.map((file, index) =>
      cache.put(
        `/shared-files/${Date.now()}-${index}`,
        new Response(file, {
          headers: {
            'content-type': file.type,
            [SHARE_TARGET.nameHeader]: encodeURIComponent(file.name),
            [SHARE_TARGET.modifiedHeader]: String(file.lastModified),
          },
        }),
      ),
    ),
  );
  return Response.redirect(new URL(SHARE_TARGET.landing, self.location.origin).href, 303);
}

// Before Workbox's routes: they answer GETs only, and this is the one POST the worker handles.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method === 'POST' && url.origin === self.location.origin && url.pathname === SHARE_TARGET.action) {
    event.respondWith(receiveShare(event.request));
  }
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('install', () => {
  if (!self.registration.active) void self.skipWaiting();
});
clientsClaim();

// What the precache serves is isolated whatever the host sent (core/isolation.ts): the pages, the scripts, the workers.
addPlugins([{ handlerWillRespond: async ({ response }) => withCrossOriginIsolation(response) }]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The precached pages answer navigations, online or not: the converter on "/" (a share's landing "/?shared" too), the
// not-found page on any other path, as the host does.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { allowlist: [/^\/(index\.html)?(\?.*)?$/] }));
registerRoute(new NavigationRoute(createHandlerBoundToURL('/404.html')));
