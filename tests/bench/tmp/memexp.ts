import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ChromiumSampler } from '../chromium-sampler';
import { allJobsSettled, APP_URL, convertButton, launchChromium, prepareBatch, startAppServer } from '../app-page';

const dir = join(import.meta.dirname, '..', '.inputs', 'v3', 'synthetic');
const all = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.jpg') && f.includes('4000')).map((f) => join(dir, f));
const count = Number(process.argv[2] ?? 12);
const compression = process.argv[3] === 'on';
const deviceMemory = process.argv[4];
const paths = all.slice(0, count);
console.log(paths.length, 'files', paths[0]);
const server = await startAppServer();
const browser = await launchChromium();
try {
  const sampler = new ChromiumSampler();
  const context = await browser.newContext({ acceptDownloads: true, serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (deviceMemory) await page.addInitScript(`Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => ${deviceMemory} })`);
  await page.goto(APP_URL);
  await page.waitForTimeout(2000);
  sampler.start(); const idle = sampler.stop().peakMemoryMb;
  sampler.start();
  await prepareBatch(page, paths, { format: 'WebP', quality: 80, compression });
  await page.waitForTimeout(Number(process.env.SETTLE ?? 3000));
  const afterAdd = sampler.stop().peakMemoryMb;
  sampler.start(); const ready = sampler.stop().peakMemoryMb;
  sampler.start();
  const t = Date.now();
  await convertButton(page).click();
  await allJobsSettled(page, paths.length);
  const ms = Date.now() - t;
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download All (.zip)' }).click()]);
  await download.path();
  const peak = sampler.stop().peakMemoryMb;
  console.log({ idle, afterAddPeak: afterAdd, ready, peak, overIdle: peak - idle, ms });
} finally { await browser.close(); server.kill(); }
