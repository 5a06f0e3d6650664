import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router';

/**
 * The app's pages as HTML, rendered at build time (see vite.config.ts): the converter into index.html, the not-found
 * page into 404.html, which hosts answer an unknown path with. Each is hydrated on load where its route matches.
 */
function renderAt(location: string): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location={location}>
        <AppRoutes />
      </StaticRouter>
    </StrictMode>,
  );
}

const PAGE_PATHS = { converter: '/', notFound: '/404' } as const;

export type PrerenderedPage = keyof typeof PAGE_PATHS;

export function renderPage(page: PrerenderedPage): string {
  return renderAt(PAGE_PATHS[page]);
}
