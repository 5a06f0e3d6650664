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

// index.html holds the converter page, rendered at build time: on "/" it comes alive where it stands; any other
// path (the 404 page) renders afresh.
stopKeepingEarlyFiles();
if (location.pathname === '/' && root.firstElementChild) hydrateRoot(root, app);
else {
  root.replaceChildren();
  createRoot(root).render(app);
}

registerServiceWorkerWhenIdle();
