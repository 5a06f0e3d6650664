import { defineConfig } from '@playwright/test';

/** Debian's Chromium: Playwright cannot download its own browser on these machines. The bench runs the full browser. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/**
 * The tests run Debian's build of Chromium's headless shell (the same Blink and V8, without the browser's windowing
 * side), as Playwright itself does for headless Chromium: a page comes alive in 0.85 s against 1.5–2.2 s, and the
 * end-to-end suite took 15.4 minutes against 18.8 (docs/testing.md).
 */
export const testChromiumPath = process.env.TEST_CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const port = Number(process.env.E2E_PORT || 4173);

/**
 * A second build with every integration configured, served beside the plain one (made and served by the global setup,
 * tests/e2e/global-setup.ts, while it makes the fixtures): its backend and webhook point at a local server the
 * integrations spec starts on `fakeBackendPort` (tests/e2e/fakeBackend.ts).
 */
export const integrationsPort = Number(process.env.E2E_INTEGRATIONS_PORT || 4174);
export const fakeBackendPort = Number(process.env.E2E_FAKE_BACKEND_PORT || 4175);
export const integrationsEnv = {
  VITE_SUPABASE_URL: `http://127.0.0.1:${fakeBackendPort}`,
  VITE_SUPABASE_ANON_KEY: 'e2e-anon-key',
  VITE_WEBHOOK_URL: `http://127.0.0.1:${fakeBackendPort}/webhook`,
};

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // Every wait is on what the page says, and the test's own limit is the only one: a stage that takes longer on a
  // slow or busy machine is not a failure (docs/testing.md, "Waits"). So assertions have no limit of their own (0),
  // and a test's limit is generous: several times what it takes here with a busy process beside it.
  timeout: 180_000,
  expect: { timeout: 0 },
  // Two tests at a time: on 2026-12-02, on this 2-core machine with transparent huge pages (as .ci/run sets them), the
  // 132 tests took 456 and 465 s two at a time against 558 and 515 s one at a time, alternated (docs/testing.md, "How
  // many at a time"). A test that times the page's own work, or reads what the page decides from its speed, takes the
  // exclusive lock (`ALONE`, helpers.ts) and runs alone.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    acceptDownloads: true,
    // Each test's fresh context would otherwise precache 7 MB of codecs; the offline spec allows it.
    serviceWorkers: 'block',
    browserName: 'chromium',
    launchOptions: { executablePath: testChromiumPath, args: chromiumArgs },
    // No trace recorded: recording every test's actions and screencast, to keep only a failure's, cost a fifth of the
    // suite's time on this 2-core machine (docs/testing.md); a failure keeps its screenshot and the page's snapshot
    // (error-context.md), and `--trace on` records one where a failure needs it.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      command: `npx vite preview --port ${port} --strictPort`,
      url: `http://localhost:${port}`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
