import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { ConverterPage } from './pages/ConverterPage.tsx';
import { registerServiceWorkerWhenIdle } from './app/serviceWorker.ts';
import { stopKeepingEarlyFiles } from './features/intake/earlyFiles.ts';

/** Marks the page alive (`data-alive` on <html>) once React has taken it over: what the end-to-end tests wait for. */
function Alive({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.alive = '';
  }, []);
  return children;
}

const root = document.getElementById('root')!;

/**
 * index.html holds the converter page and 404.html the not-found page, rendered at build time (data-page says
 * which): the page this path shows comes alive where it stands; a host that answers every path with index.html gets
 * the not-found page rendered afresh.
 */
function mount(page: ReactNode, pageForPath: 'converter' | 'notFound'): void {
  const app = (
    <StrictMode>
      <Alive>{page}</Alive>
    </StrictMode>
  );
  if (root.dataset.page === pageForPath && root.firstElementChild) hydrateRoot(root, app);
  else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
}

stopKeepingEarlyFiles();
// The converter, the page nearly every visit opens, needs no router (app/router.tsx): it comes alive at once, and
// React Router's code is fetched for any other path.
if (location.pathname === '/' || location.pathname === '/index.html') mount(<ConverterPage />, 'converter');
else void import('./app/router.tsx').then(({ BrowserRoutes }) => mount(<BrowserRoutes />, 'notFound'));

registerServiceWorkerWhenIdle();
