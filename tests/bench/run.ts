/**
 * `npm run bench`: the app against its baselines on the same files, through the real page in headless Chromium.
 * Writes docs/benchmark.md and its data, docs/benchmark.json (with --photos, tests/bench/results/latest-photos.*); a run
 * of some scenarios replaces only theirs.
 *
 *   npm run bench                          every scenario, medians of 3 runs
 *   npm run bench -- --runs 1              quicker, noisier
 *   npm run bench -- --only webp,avif      some scenarios (the ids in tests/bench/scenarios/index.ts)
 *   npm run bench -- --match 'off|native'  only the contenders whose name matches (a regular expression)
 *   npm run bench -- --photos DIR          inputs made from the photos in DIR instead of synthetic scenes
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { launchChromium, startAppServer } from './app-page.ts';
import { useHugePages } from './huge-pages.ts';
import { naturalPhotos } from './inputs.ts';
import { benchmarkPage, mergeResults, type RecordedResult, type RunDescription } from './report.ts';
import { startBaselineServer } from './runners.ts';
import { SCENARIOS } from './scenarios/index.ts';
import type { BenchContext, ScenarioResult } from './scenarios/scenario.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const RESULTS = join(import.meta.dirname, 'results');

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
};

async function browserVersion(): Promise<string> {
  const browser = await launchChromium();
  try {
    return browser.version();
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('Build first: npm run build');
  const only = option('only')?.split(',');
  const unknown = only?.filter((id) => !SCENARIOS.some((s) => s.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`No scenario ${unknown.join(', ')}; there are ${SCENARIOS.map((s) => s.id).join(', ')}`);
  const photosDir = option('photos');
  const context: BenchContext = {
    runs: Number(option('runs') ?? 3),
    photos: photosDir === undefined ? undefined : naturalPhotos(photosDir),
    match: option('match') === undefined ? null : new RegExp(option('match')!),
  };
  mkdirSync(RESULTS, { recursive: true });
  const hugePages = useHugePages();
  const appServer = await startAppServer();
  const baselineServer = startBaselineServer();
  try {
    const results: { scenario: string; result: ScenarioResult }[] = [];
    for (const scenario of SCENARIOS.filter((s) => !only || only.includes(s.id))) {
      console.log(`\n${scenario.id}:`);
      // One scenario that breaks (a browser that hangs, a page that changed) costs its own figures, not the others'.
      const outcome = await scenario.run(context).catch((error: unknown): ScenarioResult[] => {
        console.error(`  ${scenario.id} failed:`, error);
        return [{ kind: 'failed', id: scenario.id, title: scenario.id, error: error instanceof Error ? error.message.split('\n')[0]! : String(error) }];
      });
      results.push(...outcome.map((result) => ({ scenario: scenario.id, result })));
    }
    const run: RunDescription = {
      date: new Date().toISOString().slice(0, 10),
      cpu: readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU',
      cores: cpus().length,
      browserVersion: await browserVersion(),
      runs: context.runs,
      command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
      photos: context.photos !== undefined,
      hugePages: hugePages.setting,
    };
    // The page keeps the scenarios this run did not run, as they were last measured (docs/benchmark.json).
    const recordFile = context.photos ? join(RESULTS, 'latest-photos.json') : join(ROOT, 'docs', 'benchmark.json');
    const previous: RecordedResult[] = existsSync(recordFile) ? (JSON.parse(readFileSync(recordFile, 'utf8')) as { results: RecordedResult[] }).results : [];
    const recorded = mergeResults(previous, results.map((r) => ({ ...r, run })), SCENARIOS.map((s) => s.id));
    const page = benchmarkPage(recorded);
    console.log(`\n${page}`);
    writeFileSync(recordFile, JSON.stringify({ results: recorded }, null, 2) + '\n');
    writeFileSync(context.photos ? join(RESULTS, 'latest-photos.md') : join(ROOT, 'docs', 'benchmark.md'), page);
  } finally {
    appServer.kill();
    baselineServer.close();
    hugePages.restore();
  }
}

await main();
