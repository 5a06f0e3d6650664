import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { makeFixtures } from '../fixtures/make-fixtures.ts';
import { makeOrientedSources } from '../fixtures/oriented.ts';
import { startAppServer, VITE_BIN } from '../bench/app-page.ts';
import { integrationsEnv, integrationsPort } from '../../playwright.config.ts';
import { FIXTURE_DIR } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The fixtures are made while the build with every integration configured is made and served (integrations.spec.ts):
 * one after the other they took 20 s before the first test, most of it one thread each (docs/testing.md).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const [server, fixtures] = await Promise.allSettled([serveIntegrationsBuild(), makeFixtures(FIXTURE_DIR).then(() => makeOrientedSources(join(FIXTURE_DIR, 'oriented')))]);
  const stop = async () => {
    if (server.status === 'fulfilled' && server.value) await stopServer(server.value);
  };
  const failed = [server, fixtures].find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return stop;
}

/**
 * `vite build` of the configured build into dist-integrations, then `vite preview` of it on its port (startAppServer),
 * as a web server of Playwright's would; outside CI a server already answering there is used as it is (null).
 */
async function serveIntegrationsBuild(): Promise<ChildProcess | null> {
  if (!process.env.CI && (await fetch(`http://localhost:${integrationsPort}`).then((response) => response.ok, () => false))) return null;
  const build = spawn(process.execPath, [VITE_BIN, 'build', '--outDir', 'dist-integrations', '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, env: { ...process.env, ...integrationsEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  build.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve));
  if (code !== 0) throw new Error(`The configured build failed (${code}):\n${errors}`);
  return startAppServer(join(ROOT, 'dist-integrations'), integrationsPort, integrationsEnv);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill();
  await exited;
}
