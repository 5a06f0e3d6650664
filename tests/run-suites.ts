/**
 * `npm test`'s browser suites, after the checks and the unit tests: the end-to-end tests in Chromium, and beside them,
 * on the machine's idle time only, the corpus's build and the other two engines; then the corpus in Chromium.
 *
 * Why beside, and why on idle time: the end-to-end tests leave about a quarter of this 2-core machine idle (a page
 * loading, a worker starting, Playwright's round trips: latency, spread through every test; docs/testing.md). Run
 * beside them at the same priority, the engines halved the end-to-end tests' speed and took twice their own time;
 * at `nice 19`, the end-to-end tests still went a third slower (49 tests in 302 s against 198–214): a waking thread
 * of theirs waited for the niced one's slice to end. Under `SCHED_IDLE` (`chrt --idle`) the kernel preempts the lane
 * at once for any other thread that wakes. The engines' waits are on what their page says, within limits of a minute
 * or more, so a slower engine is not a failing one.
 *
 * The lane beside waits for the fixtures, which the end-to-end tests' global setup makes (the engines make the same
 * ones, and two makers at once would write the same files). Its output is printed as one block when it ends, after
 * the end-to-end tests' own. Every suite runs whatever an earlier one did; the exit code is the first failure's.
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
}

/** Runs a command to its end: its output straight through, or kept (`keep`) and handed back. */
function run(name: string, command: string[], { idle = false, keep = false } = {}): Promise<Outcome & { output: string }> {
  const started = Date.now();
  const [file, ...args] = idle ? ['chrt', '--idle', '0', ...command] : command;
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

/** The corpus's build, then the engines: on idle time only, their output kept until they end. */
async function laneBeside(endToEnd: Promise<unknown>): Promise<Outcome[]> {
  // Where the end-to-end tests end without having made them (their setup failed), the engines make their own.
  await Promise.race([fixturesMade(), endToEnd]);
  const outcomes = [];
  for (const [name, command] of [
    ['corpus build', [process.execPath, TSX, 'tests/corpus/build.ts']],
    ['engines (Firefox ESR, WebKitGTK)', [process.execPath, TSX, 'tests/engines/run.ts']],
  ] as const) {
    outcomes.push(await run(name, [...command], { idle: true, keep: true }));
  }
  // Printed once the end-to-end tests' own output is over.
  await endToEnd;
  for (const { name, seconds, output } of outcomes) console.log(`\n── ${name}, run beside the end-to-end tests (SCHED_IDLE): ${seconds.toFixed(0)} s ──\n${output.trimEnd()}\n`);
  return outcomes;
}

async function main(): Promise<number> {
  const endToEnd = run('end-to-end (Chromium)', [process.execPath, PLAYWRIGHT, 'test']);
  const beside = laneBeside(endToEnd);
  const outcomes: Outcome[] = [await endToEnd, ...(await beside)];
  const builtCorpus = outcomes.find((outcome) => outcome.name === 'corpus build');
  if (builtCorpus?.code === 0) outcomes.push(await run('corpus (Chromium)', [process.execPath, PLAYWRIGHT, 'test', '-c', 'tests/corpus/playwright.config.ts']));
  console.log(outcomes.map(({ name, code, seconds }) => `${code === 0 ? '✓' : '✘'} ${name}: ${seconds.toFixed(0)} s`).join('\n'));
  return outcomes.find((outcome) => outcome.code !== 0)?.code ?? 0;
}

process.exit(await main());
