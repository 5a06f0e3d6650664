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
import { chromiumArgs, chromiumPath } from '../../playwright.config';

const DIST = join(import.meta.dirname, '..', '..', 'dist');

export interface InitialScript {
  file: string;
  gzipBytes: number;
}

/**
 * The entry script (a src, or the import() index.html starts it with after the first paint) and the modules it
 * preloads: what runs before the page is alive.
 */
export function initialJavaScript(): InitialScript[] {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const patterns = [/<script[^>]+type="module"[^>]+src="([^"]+)"/g, /<script type="module">[^<]*import\("([^"]+)"\)/g, /<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g];
  const sources = patterns.flatMap((pattern) => [...html.matchAll(pattern)].map((m) => m[1]!));
  if (sources.length === 0) throw new Error('index.html starts no script that the bench recognises');
  return sources.map((src) => ({ file: src, gzipBytes: gzipSync(readFileSync(join(DIST, src))).length }));
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
