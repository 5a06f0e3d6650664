import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFixtures } from '../fixtures/make-fixtures.ts';
import { makeOrientedSources } from '../fixtures/oriented.ts';
import { startFirefox } from './firefox.ts';
import { SCENARIOS, startFresh, type Scenario, type ScenarioContext } from './scenarios.ts';
import type { EngineSession } from './session.ts';
import { startWebKit } from './webkit.ts';

/**
 * The app in the other two engines: Debian's Firefox ESR and WebKitGTK (what Safari is built on), each through the
 * scenarios in scenarios.ts, against the build in dist/ served as `npm start` serves it. `npm test` runs it after
 * Playwright's Chromium suite; alone: `npm run build && npm run test:engines [-- firefox|webkit] [--grep text]`.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtureDir = join(root, 'tests', 'e2e', '.generated');
/** The first engine's server; each next engine's is two ports on (the offline scenario stops its own engine's only). */
const firstPort = Number(process.env.ENGINES_PORT || 4177);

const ENGINES: Record<string, () => Promise<EngineSession>> = { firefox: startFirefox, webkit: startWebKit };

/**
 * A scenario's one limit. Every wait in it is on what the page says (session.ts's waitFor), however long this machine
 * takes; this ends whatever is still waiting. The slowest scenario takes about a minute here with a busy process beside
 * it, so only a page that has stopped answering reaches it.
 */
const SCENARIO_LIMIT_MS = 6 * 60_000;
/** How long the preview server may take to answer: it is up in a second or two, more on a busy machine. */
const SERVER_START_LIMIT_MS = 60_000;

function startServer(port: number): Promise<ChildProcess> {
  const url = `http://localhost:${port}`;
  const server = spawn(join(root, 'node_modules', '.bin', 'vite'), ['preview', '--port', String(port), '--strictPort'], { cwd: root, stdio: 'ignore' });
  return (async () => {
    for (const deadline = Date.now() + SERVER_START_LIMIT_MS; Date.now() < deadline; ) {
      if (await fetch(url).then((response) => response.ok, () => false)) return server;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    server.kill();
    throw new Error(`the preview server did not answer on ${url}`);
  })();
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill();
  await exited;
}

const messageOf = (error: unknown) => String(error instanceof Error ? error.message : error);

/** What the app logged as errors on the page the scenario ended on (scenarios.ts collects them from each load). */
const pageErrors = (session: EngineSession) =>
  Promise.race([
    session.run<string[] | null>(`return window.__errors || null`).then((errors) => (errors && errors.length > 0 ? errors.map((error) => error.replace(/\s+/g, ' ').slice(0, 300)).join(' | ') : 'none')),
    new Promise<string>((resolve) => setTimeout(() => resolve('the page does not answer'), 5000)),
  ]).catch((error: unknown) => `unreadable (${messageOf(error)})`);

interface Tally {
  passed: number;
  failed: number;
  flaky: number;
}

/** Every scenario in one engine, against a server of its own on `port`. */
async function runEngine(name: string, port: number, scenarios: Scenario[]): Promise<Tally> {
  const tally: Tally = { passed: 0, failed: 0, flaky: 0 };
  const baseUrl = `http://localhost:${port}`;
  let server = await startServer(port);
  try {
    let session = await ENGINES[name]!();
    console.log(`${session.engine} ${session.version}`);
    const context = (signal: AbortSignal): ScenarioContext => ({
      session,
      signal,
      baseUrl,
      fixtureDir,
      server: {
        stop: () => stopServer(server),
        start: async () => {
          server = await startServer(port);
        },
      },
    });
    try {
      for (const scenario of scenarios) {
        const started = Date.now();
        const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
        const attempt = async () => {
          const signal = AbortSignal.timeout(SCENARIO_LIMIT_MS);
          await startFresh(context(signal));
          await scenario.run(context(signal));
        };
        try {
          await attempt();
          tally.passed++;
          console.log(`  ✓ ${session.engine} › ${scenario.name} (${seconds()}s)`);
          continue;
        } catch (error) {
          console.log(`  ! ${session.engine} › ${scenario.name} failed once (${seconds()}s)\n    ${messageOf(error)}\n    the page's errors: ${await pageErrors(session)}`);
        }
        // Once more, in a browser of its own (a wedged browser would fail every scenario after it): a scenario that
        // passes only then is counted and named as flaky, not hidden.
        await session.close().catch(() => undefined);
        session = await ENGINES[name]!();
        try {
          await attempt();
          tally.passed++;
          tally.flaky++;
          console.log(`  ✓ ${session.engine} › ${scenario.name} on a second try: FLAKY (${seconds()}s)`);
        } catch (error) {
          tally.failed++;
          console.log(`  ✘ ${session.engine} › ${scenario.name} (${seconds()}s)\n    ${messageOf(error)}\n    the page's errors: ${await pageErrors(session)}`);
        }
      }
    } finally {
      await session.close();
    }
  } finally {
    await stopServer(server);
  }
  return tally;
}

async function main(): Promise<number> {
  if (!existsSync(join(root, 'dist', 'index.html'))) throw new Error('No build in dist/: run `npm run build` first.');
  await makeFixtures(fixtureDir);
  await makeOrientedSources(join(fixtureDir, 'oriented'));
  const args = process.argv.slice(2);
  const chosen = args.filter((name) => name in ENGINES);
  const grep = args.includes('--grep') ? args[args.indexOf('--grep') + 1] ?? '' : '';
  const scenarios = SCENARIOS.filter((scenario) => scenario.name.includes(grep));
  // The engines at once, each in its own browser with its own server: every wait is on what the page says, so a
  // scenario beside another only takes longer, and the two share this machine's cores better than one after the other.
  const tallies = await Promise.all((chosen.length > 0 ? chosen : Object.keys(ENGINES)).map((name, index) => runEngine(name, firstPort + 2 * index, scenarios)));
  const sum = (key: keyof Tally) => tallies.reduce((total, tally) => total + tally[key], 0);
  console.log(`${sum('passed')} passed${sum('flaky') > 0 ? ` (${sum('flaky')} flaky: passed on a second try)` : ''}, ${sum('failed')} failed`);
  return sum('failed') > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
