import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, headersFile, headersFor, hostHeaderRules } from '../../src/app/hostHeaders.ts';
import { withCrossOriginIsolation } from '../../core/isolation.ts';

const directives = (csp: string) => new Map(csp.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

describe('host headers', () => {
  it('the CSP allows no inline or foreign script, WASM compilation, and requests to the site only when nothing is configured', () => {
    const csp = directives(contentSecurityPolicy([]));
    expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
  });

  it("connect-src adds exactly the configured integrations' origins", () => {
    const csp = directives(contentSecurityPolicy(['https://abc.supabase.co', 'https://hooks.example']));
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://abc.supabase.co', 'https://hooks.example']);
  });

  it('every path gets the security headers; hashed assets a year of cache; the page, sw.js and the manifest none', () => {
    const rules = hostHeaderRules([]);
    for (const path of ['/', '/index.html', '/assets/main-abc.js', '/sw.js', '/robots.txt', '/somewhere/else']) {
      expect(headersFor(path, rules)).toMatchObject({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
      expect(headersFor(path, rules)['Content-Security-Policy']).toBe(contentSecurityPolicy([]));
      expect(headersFor(path, rules)).toMatchObject({ 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
    }
    expect(headersFor('/assets/main-abc.js', rules)['Cache-Control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html', '/404.html', '/sw.js', '/manifest.webmanifest']) expect(headersFor(path, rules)['Cache-Control']).toBe('no-cache');
    expect(headersFor('/robots.txt', rules)['Cache-Control']).toBeUndefined();
    expect(headersFor('/assetsX/a.js', rules)['Cache-Control']).toBeUndefined();
  });

  it('writes the _headers syntax Netlify and Cloudflare Pages read: a path, its headers indented, a blank line between', () => {
    const file = headersFile([
      { path: '/*', headers: { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' } },
      { path: '/assets/*', headers: { 'Cache-Control': 'immutable' } },
    ]);
    expect(file).toBe('/*\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: no-referrer\n\n/assets/*\n  Cache-Control: immutable\n');
  });
});

describe('what the service worker serves', () => {
  it('gains the isolation headers, keeping its status, its other headers and its body', async () => {
    const served = withCrossOriginIsolation(new Response('<!doctype html>', { status: 200, headers: { 'Content-Type': 'text/html', 'Cache-Control': 'no-cache' } }));
    expect(served.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
    expect(served.headers.get('Cross-Origin-Embedder-Policy')).toBe('require-corp');
    expect(served.headers.get('Content-Type')).toBe('text/html');
    expect(served.headers.get('Cache-Control')).toBe('no-cache');
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('<!doctype html>');
  });

  it('is handed back as it is when the host already isolated it', () => {
    const isolated = new Response('x', { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } });
    expect(withCrossOriginIsolation(isolated)).toBe(isolated);
  });

  it('a 404 stays a 404', () => {
    expect(withCrossOriginIsolation(new Response('gone', { status: 404 })).status).toBe(404);
  });
});
