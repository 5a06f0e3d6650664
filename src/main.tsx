import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/router';
import './styles.css';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </StrictMode>
);

// index.html holds the converter page, rendered at build time: on "/" it comes alive where it stands; any other
// path (the 404 page) renders afresh.
if (location.pathname === '/' && root.firstElementChild) hydrateRoot(root, app);
else {
  root.replaceChildren();
  createRoot(root).render(app);
}
