import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { makeFixtures } from '../fixtures/make-fixtures.ts';
import { makeOrientedSources } from '../fixtures/oriented.ts';
import { integrationsEnv, integrationsPort } from '../../playwright.config.ts';
import { FIXTURE_DIR } from './helpers.ts';

/**
 * The fixtures are made while the build with every integration configured is made and served (integrations.spec.ts):
 * one after the other they took 20 s before the first test, most of it one thread each (docs/testing.md).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const integrations = serveIntegrationsBuild();
  try {
    await Promise.all([makeFixtures(FIXTURE_DIR).then(() => makeOrientedSources(join(FIXTURE_DIR, 'oriented'))), integrations.ready]);
  } catch (error) {
    await integrations.stop();
    throw error;
  }
  return integrations.stop;
}

const integrationsUrl = `http://localhost:${integrationsPort}`;

const answers = (url: string) =>
  fetch(url).then(
    (response) => response.ok,
    () => false,
  );

/**
 * `vite build` of the configured build into dist-integrations, then `vite preview` of it on its port, as a web server
 * of Playwright's would (one already there is used outside CI). `ready` settles once it answers; `stop` ends it.
 */
function serveIntegrationsBuild(): { ready: Promise<void>; stop: () => Promise<void> } {
  const reuse = !process.env.CI;
  let stop = async () => {};
  const ready = (async () => {
    if (reuse && (await answers(integrationsUrl))) return;
    const command = `npx vite build --outDir dist-integrations --emptyOutDir --logLevel warn && exec npx vite preview --outDir dist-integrations --port ${integrationsPort} --strictPort`;
    const server = spawn('sh', ['-c', command], { env: { ...process.env, ...integrationsEnv }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let errors = '';
    server.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    stop = async () => {
      if (server.exitCode !== null || server.signalCode !== null) return;
      process.kill(-server.pid!, 'SIGTERM');
      await exited;
    };
    const limit = Date.now() + 180_000;
    for (;;) {
      if (await answers(integrationsUrl)) return;
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('running'), 200))]);
      if (code !== 'running') throw new Error(`The configured build's server ended (${code}) before it answered on ${integrationsUrl}:\n${errors}`);
      if (Date.now() > limit) throw new Error(`The configured build's server did not answer on ${integrationsUrl} within 3 minutes:\n${errors}`);
    }
  })();
  return { ready, stop: () => stop() };
}
