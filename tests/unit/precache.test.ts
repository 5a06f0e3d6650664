import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The offline copy as the build made it: dist/sw.js's precache list (injected by vite-plugin-pwa). `npm test` builds
 * before the unit tests; alone, run `npm run build` first.
 */
const DIST = join(import.meta.dirname, '../../dist');

function precached(): Set<string> {
  const sw = join(DIST, 'sw.js');
  if (!existsSync(sw)) throw new Error('dist/sw.js is missing: run `npm run build` first (npm test does).');
  return new Set([...readFileSync(sw, 'utf8').matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!));
}

const assets = () => readdirSync(join(DIST, 'assets'));

/** Every codec the pipeline loads, by the name its .wasm has (jSquash's, and wasm/jpegli's). */
const LOADED_CODECS = ['jpegli', 'mozjpeg_dec', 'webp_enc', 'webp_enc_simd', 'webp_dec', 'avif_enc', 'avif_enc_mt', 'avif_dec', 'squoosh_png_bg', 'squoosh_oxipng_bg', 'squoosh_resize_bg'];

describe('the precache manifest (offline copy)', () => {
  it('holds every .wasm the app can load', () => {
    const list = precached();
    const wasm = assets().filter((file) => file.endsWith('.wasm'));
    for (const codec of LOADED_CODECS) {
      const files = wasm.filter((file) => file.startsWith(`${codec}-`));
      expect(files, codec).toHaveLength(1);
      expect(list.has(`assets/${files[0]}`), `${files[0]} precached`).toBe(true);
    }
  });

  it('holds the threaded AVIF and JPEG XL encoders and the scripts their threads start from (the page is cross-origin isolated)', () => {
    const list = precached();
    for (const build of ['avif_enc_mt', 'jxl_enc_mt']) {
      const threaded = assets().filter((file) => file.startsWith(build));
      expect(threaded.some((file) => file.endsWith('.wasm'))).toBe(true);
      expect(threaded.some((file) => file.startsWith(`${build}.worker`))).toBe(true);
      for (const file of threaded) expect(list.has(`assets/${file}`), `${file} precached`).toBe(true);
    }
  });

  it('leaves out the resizers the pipeline never loads', () => {
    expect([...precached()].filter((url) => /squooshhqx|jsquash_magic_kernel/.test(url))).toEqual([]);
  });

  it('holds the page, its entry and every script a precached script imports', () => {
    const list = precached();
    expect(list.has('index.html')).toBe(true);
    const scripts = assets().filter((file) => file.endsWith('.js'));
    let checked = 0;
    for (const script of scripts) {
      const imported = [...readFileSync(join(DIST, 'assets', script), 'utf8').matchAll(/["'`]\.\/([\w.-]+\.(?:js|wasm))["'`]/g)].map((m) => m[1]!);
      for (const file of imported) {
        expect(list.has(`assets/${file}`), `${file}, imported by ${script}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
