import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/router';
import { registerServiceWorkerWhenIdle } from './app/serviceWorker';
import { stopKeepingEarlyFiles } from './features/intake/earlyFiles';

/** Marks the page alive (`data-alive` on <html>) once React has taken it over: what the end-to-end tests wait for. */
function Alive({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.alive = '';
  }, []);
  return children;
}

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <Alive>
        <AppRoutes />
      </Alive>
    </BrowserRouter>
  </StrictMode>
);

// index.html holds the converter page and 404.html the not-found page, rendered at build time (data-page says which):
// the page this path shows comes alive where it stands; a host that answers every path with index.html gets the
// not-found page rendered afresh.
stopKeepingEarlyFiles();
const pageForPath = location.pathname === '/' || location.pathname === '/index.html' ? 'converter' : 'notFound';
if (root.dataset.page === pageForPath && root.firstElementChild) hydrateRoot(root, app);
else {
  root.replaceChildren();
  createRoot(root).render(app);
}

registerServiceWorkerWhenIdle();
