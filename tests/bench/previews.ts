/**
 * How long the cards' previews of iPhone HEICs take: `count` of the bench's iPhone-style HEICs (inputs.ts
 * iphoneHeicSet: 12 MP grids with a 320 × 240 thumbnail) picked at once in a fresh page of a build, until every card has
 * its preview (the selection's data-previews); three runs. Two builds side by side, each served from its own folder:
 *
 *   npx vite build --outDir /tmp/dist-before      (at the commit before)
 *   npx tsx tests/bench/previews.ts /tmp/dist-before 4300 8
 *   npx tsx tests/bench/previews.ts dist 4301 8
 */
import { launchChromium, openContext, openIdleApp, startAppServer } from './app-page.ts';
import { corpusPhotographs, iphoneHeicSet } from './inputs.ts';

const [outDir, port] = [process.argv[2] ?? 'dist', Number(process.argv[3] ?? 4300)];
const count = Number(process.argv[4] ?? 8);
const set = await iphoneHeicSet(count, corpusPhotographs());
const server = await startAppServer(outDir, port);
const browser = await launchChromium();
try {
  for (let run = 0; run < 3; run++) {
    const page = await (await openContext(browser)).newPage();
    await openIdleApp(page, undefined, `http://localhost:${port}/`);
    const from = Date.now();
    await page.getByTestId('file-input').setInputFiles(set.paths);
    await page.getByTestId('selection-summary').waitFor();
    await page.waitForFunction((n) => document.querySelector('[data-testid="selection-summary"]')?.getAttribute('data-previews') === String(n), count, { timeout: 600_000, polling: 50 });
    console.log(`${outDir}: ${count} previews in ${((Date.now() - from) / 1000).toFixed(2)} s`);
    await page.context().close();
  }
} finally {
  await browser.close();
  server.kill();
}
