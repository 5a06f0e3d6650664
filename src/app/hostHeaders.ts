/**
 * The HTTP headers the app is meant to be served with, for any static host: written by the build as `_headers`
 * (Netlify and Cloudflare Pages read it), applied by `npm start`'s preview server (vite.config.ts) so the tests see
 * what a host sends, and spelled out for nginx in docs/hosting.md. Read by the build, not by the page. Pure.
 */

import { CROSS_ORIGIN_ISOLATION } from '../../core/isolation.ts';

export interface HeaderRule {
  /** A path, or a prefix ending in `*` (the `_headers` file's splat). */
  path: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * No inline script and nothing from elsewhere: scripts, workers and WebAssembly only from the site itself; images
 * from the site and the page's own previews (blob:); requests to the site and to the configured integrations' origins
 * only. Inline styles stay allowed: the page's stylesheet is inlined into index.html, and the toasts style themselves.
 */
export function contentSecurityPolicy(connectOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "worker-src 'self' blob:",
    `connect-src ${["'self'", ...connectOrigins].join(' ')}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const NO_CACHE = 'no-cache';

export function hostHeaderRules(connectOrigins: readonly string[]): HeaderRule[] {
  return [
    {
      path: '/*',
      headers: {
        'Content-Security-Policy': contentSecurityPolicy(connectOrigins),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), browsing-topics=()',
        ...CROSS_ORIGIN_ISOLATION,
      },
    },
    // File names carry a hash of their content: a changed file is a new name.
    { path: '/assets/*', headers: { 'Cache-Control': 'public, max-age=31536000, immutable' } },
    // What names the current version must be asked for again each time, or an update never arrives.
    { path: '/', headers: { 'Cache-Control': NO_CACHE } },
    { path: '/index.html', headers: { 'Cache-Control': NO_CACHE } },
    { path: '/404.html', headers: { 'Cache-Control': NO_CACHE } },
    { path: '/sw.js', headers: { 'Cache-Control': NO_CACHE } },
    { path: '/manifest.webmanifest', headers: { 'Cache-Control': NO_CACHE } },
  ];
}

function matches(rulePath: string, pathname: string): boolean {
  return rulePath.endsWith('*') ? pathname.startsWith(rulePath.slice(0, -1)) : pathname === rulePath;
}

/** The headers a request path gets: every matching rule's, later rules adding to earlier ones (as Netlify merges them). */
export function headersFor(pathname: string, rules: readonly HeaderRule[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules) if (matches(rule.path, pathname)) Object.assign(headers, rule.headers);
  return headers;
}

/** The rules in the `_headers` file's syntax: a path, then its headers indented below it. */
export function headersFile(rules: readonly HeaderRule[]): string {
  return rules.map((rule) => [rule.path, ...Object.entries(rule.headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n')).join('\n\n') + '\n';
}
