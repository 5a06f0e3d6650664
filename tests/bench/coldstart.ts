/**
 * Cold-start figures for `npm run bench`: the JavaScript the built page loads before it can run (its entry script
 * and what it preloads, gzipped), and Lighthouse's mobile run (simulated slow 4G and a 4× slower CPU) against the
 * production build on loopback, in Debian's Chromium.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumArgs, chromiumPath } from '../../playwright.config.ts';

const DIST = join(import.meta.dirname, '..', '..', 'dist');

export interface InitialScript {
  file: string;
  gzipBytes: number;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * What runs before the page is alive: index.html's entry (src/boot.ts), the app it imports after the first paint
 * (src/main.tsx) and every module those import statically. Read from the build's manifest. Other dynamic imports
 * of the entry's chunk load on first use, not at start.
 */
const APP = 'src/main.tsx';

export function initialJavaScript(): InitialScript[] {
  const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = manifest['index.html'];
  if (!entry) throw new Error('the build manifest has no index.html entry');
  const files = new Set<string>();
  const add = (key: string) => {
    const chunk = manifest[key]!;
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) add(imported);
  };
  add('index.html');
  if (!entry.dynamicImports?.includes(APP)) throw new Error(`the entry no longer starts ${APP}: say here what it starts`);
  add(APP);
  return [...files].map((file) => ({ file, gzipBytes: gzipSync(readFileSync(join(DIST, file))).length }));
}

export interface LighthouseFigures {
  scores: Record<string, number>;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  /** Audits of the accessibility, best-practices and SEO categories that did not pass. */
  failing: string[];
}

export async function runLighthouse(url: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: ['--headless=new', ...chromiumArgs] });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
    if (!result) throw new Error('Lighthouse returned nothing');
    const { categories, audits } = result.lhr;
    const failing = ['accessibility', 'best-practices', 'seo'].flatMap((id) =>
      categories[id]!.auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id]!.score !== null && audits[ref.id]!.score! < 1).map((ref) => `${id}: ${ref.id}`),
    );
    return {
      scores: Object.fromEntries(Object.entries(categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)])),
      lcpMs: Math.round(audits['largest-contentful-paint']!.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']!.numericValue ?? 0),
      fcpMs: Math.round(audits['first-contentful-paint']!.numericValue ?? 0),
      failing,
    };
  } finally {
    chrome.kill();
  }
}
