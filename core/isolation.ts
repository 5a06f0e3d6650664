/**
 * The headers that make the page cross-origin isolated (`crossOriginIsolated`): only then may its workers share memory,
 * which the threaded AVIF encoder needs (wasm/avif/loader.ts). `require-corp` rather than `credentialless`: everything
 * the page loads is its own, Safari knows only `require-corp`, and the integrations' calls are CORS requests, which
 * COEP lets through either way. Sent by the host (src/app/hostHeaders.ts) and added by the service worker to what it
 * serves (workers/sw.ts), so a host that cannot set headers is isolated from the second visit on.
 */
export const CROSS_ORIGIN_ISOLATION: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** `response` with the isolation headers, as a new Response over the same body; unchanged when it already has them all. */
export function withCrossOriginIsolation(response: Response): Response {
  const missing = Object.entries(CROSS_ORIGIN_ISOLATION).filter(([name, value]) => response.headers.get(name) !== value);
  if (missing.length === 0 || response.type === 'opaque' || response.type === 'opaqueredirect') return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of missing) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
