import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, testChromiumPath } from '../../playwright.config.ts';

/** The conformance corpus in Chromium, against the build in dist/ (`npm run test:corpus` builds the corpus first). */
const port = Number(process.env.CORPUS_PORT || 4178);

export default defineConfig({
  testDir: '.',
  testMatch: 'corpus.spec.ts',
  outputDir: '../../test-results/corpus',
  // Two batches at a time, each in its own browser (corpus.spec.ts runs its tests in parallel): the test's own side
  // (unzipping, decoding every output with sharp or djxl) overlaps the other page's conversions.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // As the end-to-end tests: every wait is on the page's state, within the test's own limit (corpus.spec.ts: 30 min
  // for a batch of 30 files to one format), never a limit of its own.
  expect: { timeout: 0 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    acceptDownloads: true,
    serviceWorkers: 'block',
    browserName: 'chromium',
    launchOptions: { executablePath: testChromiumPath, args: chromiumArgs },
    // As the end-to-end tests: no trace recorded (playwright.config.ts), a failure's screenshot kept.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort`,
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
