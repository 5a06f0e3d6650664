import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router';

/** The converter page as HTML, rendered at build time into index.html (see vite.config.ts) and hydrated on load. */
export function renderConverterPage(): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location="/">
        <AppRoutes />
      </StaticRouter>
    </StrictMode>,
  );
}
