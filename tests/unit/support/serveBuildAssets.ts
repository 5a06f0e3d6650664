import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a static host does for the codecs in Node: Vitest gives each `?url` import a root-relative path
 * (/node_modules/@jsquash/…/x.wasm), which the app fetches and compiles (wasm/once.ts). Node's fetch needs an
 * absolute URL, so root-relative ones are answered from the project's files, `.wasm` as application/wasm.
 */
export function serveBuildAssets(root = process.cwd()): void {
  const networkFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('/')) return networkFetch(input, init);
    const bytes = await readFile(join(root, decodeURIComponent(url.split('?')[0]!)));
    return new Response(bytes, { headers: { 'content-type': url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream' } });
  };
}
