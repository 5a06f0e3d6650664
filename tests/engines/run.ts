import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFixtures } from '../fixtures/make-fixtures';
import { startFirefox } from './firefox';
import { SCENARIOS, startFresh, type ScenarioContext } from './scenarios';
import type { EngineSession } from './session';
import { startWebKit } from './webkit';

/**
 * The app in the other two engines: Debian's Firefox ESR and WebKitGTK (what Safari is built on), each through the
 * scenarios in scenarios.ts, against the build in dist/ served as `npm start` serves it. `npm test` runs it after
 * Playwright's Chromium suite; alone: `npm run build && npm run test:engines [-- firefox|webkit] [--grep text]`.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtureDir = join(root, 'tests', 'e2e', '.generated');
const port = Number(process.env.ENGINES_PORT || 4177);
const baseUrl = `http://localhost:${port}`;

const ENGINES: Record<string, () => Promise<EngineSession>> = { firefox: startFirefox, webkit: startWebKit };

/**
 * A scenario's one limit. Every wait in it is on what the page says (session.ts's waitFor), however long this machine
 * takes; this ends whatever is still waiting. The slowest scenario takes about a minute here with a busy process beside
 * it, so only a page that has stopped answering reaches it.
 */
const SCENARIO_LIMIT_MS = 6 * 60_000;
/** How long the preview server may take to answer: it is up in a second or two, more on a busy machine. */
const SERVER_START_LIMIT_MS = 60_000;

function startServer(): Promise<ChildProcess> {
  const server = spawn(join(root, 'node_modules', '.bin', 'vite'), ['preview', '--port', String(port), '--strictPort'], { cwd: root, stdio: 'ignore' });
  return (async () => {
    for (const deadline = Date.now() + SERVER_START_LIMIT_MS; Date.now() < deadline; ) {
      if (await fetch(baseUrl).then((response) => response.ok, () => false)) return server;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    server.kill();
    throw new Error(`the preview server did not answer on ${baseUrl}`);
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

async function main(): Promise<number> {
  if (!existsSync(join(root, 'dist', 'index.html'))) throw new Error('No build in dist/: run `npm run build` first.');
  await makeFixtures(fixtureDir);
  const args = process.argv.slice(2);
  const chosen = args.filter((name) => name in ENGINES);
  const grep = args.includes('--grep') ? args[args.indexOf('--grep') + 1] ?? '' : '';
  const scenarios = SCENARIOS.filter((scenario) => scenario.name.includes(grep));
  let server = await startServer();
  let passed = 0;
  let failed = 0;
  let flaky = 0;
  try {
    for (const name of chosen.length > 0 ? chosen : Object.keys(ENGINES)) {
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
            server = await startServer();
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
            passed++;
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
            passed++;
            flaky++;
            console.log(`  ✓ ${session.engine} › ${scenario.name} on a second try: FLAKY (${seconds()}s)`);
          } catch (error) {
            failed++;
            console.log(`  ✘ ${session.engine} › ${scenario.name} (${seconds()}s)\n    ${messageOf(error)}\n    the page's errors: ${await pageErrors(session)}`);
          }
        }
      } finally {
        await session.close();
      }
    }
  } finally {
    await stopServer(server);
  }
  console.log(`${passed} passed${flaky > 0 ? ` (${flaky} flaky: passed on a second try)` : ''}, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
