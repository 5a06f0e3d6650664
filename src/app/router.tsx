import { createBrowserRouter } from 'react-router';
import { ConverterPage } from '../pages/ConverterPage';
import { NotFoundPage } from '../pages/NotFoundPage';

/** No errorElement on purpose: a render error shows the router's own "Unexpected Application Error!" screen. */
export const router = createBrowserRouter([
  { path: '/', element: <ConverterPage /> },
  { path: '*', element: <NotFoundPage /> },
]);
