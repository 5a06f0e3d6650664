import { StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router.tsx';
import { ConverterPage } from './pages/ConverterPage.tsx';

/**
 * The app's pages as HTML, rendered at build time (see vite.config.ts): the converter into index.html, the not-found
 * page into 404.html, which hosts answer an unknown path with. Each is hydrated on load where its route matches, as
 * the same tree: the converter without a router (main.tsx), the not-found page under one.
 */
const PAGES = {
  converter: () => <ConverterPage />,
  notFound: () => (
    <StaticRouter location="/404">
      <AppRoutes />
    </StaticRouter>
  ),
} satisfies Record<string, () => ReactNode>;

export type PrerenderedPage = keyof typeof PAGES;

export function renderPage(page: PrerenderedPage): string {
  return renderToString(<StrictMode>{PAGES[page]()}</StrictMode>);
}
