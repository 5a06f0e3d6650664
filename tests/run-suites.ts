/**
 * `npm test`'s browser suites, after the checks and the unit tests: the end-to-end tests in Chromium with the corpus's
 * build beside them (at `nice 19`), then the other two engines, then the corpus in Chromium.
 *
 * The corpus's build (its variants written by exiftool, ImageMagick, jpegtran and the rest: about half a core for
 * 20–30 s) fits in what the end-to-end tests leave idle: beside them it cost them nothing measurable (26 tests in
 * 120 s with it and without). With the tests two at a time it has less room and takes about 145 s beside them, still
 * ending long before they do (the suite 479 s, against 456–465 alone). The engines do not fit there: beside the
 * end-to-end tests, at `nice 19` or on idle time only (`SCHED_IDLE`), they made them a half slower (26 tests in 184
 * and 204 s), more than their own 120 s. That idle quarter is latency, and these two cores do not run two browsers'
 * work without each slowing the other (docs/testing.md, "How many at a time").
 *
 * The build waits for the end-to-end tests' global setup to make the fixtures (it reads none of them, but it and the
 * setup's tools would share the cores in the setup's own busiest seconds). Its output is printed when the end-to-end
 * tests end. Every suite runs whatever an earlier one did; the exit code is the first failure's.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_DIR } from './e2e/helpers.ts';
import { FIXTURES_COMPLETE } from './fixtures/make-fixtures.ts';
import { ORIENTED_COMPLETE } from './fixtures/oriented.ts';

const ROOT = join(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const PLAYWRIGHT = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

interface Outcome {
  name: string;
  code: number;
  seconds: number;
  output: string;
}

/** Runs a command to its end: its output straight through, or kept (`keep`) and handed back. */
function run(name: string, command: string[], { niced = false, keep = false } = {}): Promise<Outcome> {
  const started = Date.now();
  const [file, ...args] = niced ? ['nice', '-n', '19', ...command] : command;
  const child = spawn(file!, args, { cwd: ROOT, stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ name, code: 1, seconds: (Date.now() - started) / 1000, output: `${output}\n${String(error)}` }));
    child.once('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, output }));
  });
}

async function fixturesMade(): Promise<void> {
  while (!existsSync(join(FIXTURE_DIR, FIXTURES_COMPLETE)) || !existsSync(join(FIXTURE_DIR, 'oriented', ORIENTED_COMPLETE))) await new Promise((resolve) => setTimeout(resolve, 500));
}

async function main(): Promise<number> {
  const endToEnd = run('end-to-end (Chromium)', [process.execPath, PLAYWRIGHT, 'test']);
  const corpusBuild = Promise.race([fixturesMade(), endToEnd]).then(() => run('corpus build', [process.execPath, TSX, 'tests/corpus/build.ts'], { niced: true, keep: true }));
  const outcomes = [await endToEnd];
  const built = await corpusBuild;
  console.log(`\n── the corpus's build, beside the end-to-end tests: ${built.seconds.toFixed(0)} s ──\n${built.output.trimEnd()}\n`);
  outcomes.push(built);
  outcomes.push(await run('engines (Firefox ESR, WebKitGTK)', [process.execPath, TSX, 'tests/engines/run.ts']));
  if (built.code === 0) outcomes.push(await run('corpus (Chromium)', [process.execPath, PLAYWRIGHT, 'test', '-c', 'tests/corpus/playwright.config.ts']));
  console.log(outcomes.map(({ name, code, seconds }) => `${code === 0 ? '✓' : '✘'} ${name}: ${seconds.toFixed(0)} s`).join('\n'));
  return outcomes.find((outcome) => outcome.code !== 0)?.code ?? 0;
}

process.exit(await main());
