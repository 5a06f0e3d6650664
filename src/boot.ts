import { keepEarlyFiles } from './features/intake/earlyFiles.ts';

/**
 * The page's only script tag. index.html already holds the painted page (prerendered at build time), so the app's
 * script need not compete with it: it is fetched once the first frame is painted (a slow mobile link gives the HTML
 * its bandwidth) and hydrates the page it finds. Until then files picked or dropped are kept for it. A file, not an
 * inline script, so the Content-Security-Policy can forbid inline scripts.
 */
keepEarlyFiles();
requestAnimationFrame(() => setTimeout(() => void import('./main.tsx')));
