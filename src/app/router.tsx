import { BrowserRouter, Route, Routes } from 'react-router';
import { ConverterPage } from '../pages/ConverterPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';

/**
 * The app's two routes, under whichever router renders them: the browser's (BrowserRoutes) or, at build time, a
 * static one for the not-found page (entry-server.tsx). The converter page at "/" comes alive without a router
 * (main.tsx): it is the only page at its path and links nowhere, so React Router's code is loaded for other paths only.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<ConverterPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

/** The routes in the browser: a page at any path but the converter's, and the converter again after "Return to Home". */
export function BrowserRoutes() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
