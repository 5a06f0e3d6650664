import { Route, Routes } from 'react-router';
import { ConverterPage } from '../pages/ConverterPage';
import { NotFoundPage } from '../pages/NotFoundPage';

/**
 * The app's two routes, under whichever router the entry gives them: the browser's (main.tsx) or, at build time,
 * a static one for "/" (entry-server.tsx), whose HTML is the page's first paint.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<ConverterPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
