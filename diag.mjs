import { chromium } from '@playwright/test';
import fs from 'node:fs';
for (let round = 0; round < 3; round++) {
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const page = await browser.newPage();
await page.addInitScript(() => {
  window.__loaf = [];
  window.__lt = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__loaf.push({ start: Math.round(e.startTime), dur: Math.round(e.duration), block: Math.round(e.blockingDuration), render: Math.round(e.renderStart ? e.startTime + e.duration - e.renderStart : 0), style: Math.round(e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0), scripts: e.scripts.map(s => `${s.invokerType}:${s.invoker}:${Math.round(s.duration)}ms fwd=${Math.round(s.forcedStyleAndLayoutDuration)} ${s.sourceFunctionName}@${s.sourceURL.split('/').pop()}:${s.sourceCharPosition}`) }); }).observe({ type: 'long-animation-frame', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push({ start: Math.round(e.startTime), dur: Math.round(e.duration) }); }).observe({ type: 'longtask', buffered: true });
});
await page.goto('http://localhost:4173/');
const photo = fs.readFileSync('tests/e2e/.generated/camera-12mp.jpg');
await page.getByTestId('file-input').setInputFiles(Array.from({ length: 6 }, (_, i) => ({ name: `h-${i}.jpg`, mimeType: 'image/jpeg', buffer: photo })));
await page.waitForTimeout(8000);
await page.getByLabel('Email address').fill('a@b.co');
const t0 = await page.evaluate(() => performance.now());
await page.getByRole('button', { name: 'Convert 6 images' }).click();
await page.locator('[data-status="completed"]').nth(5).waitFor({ timeout: 120000 });
const t1 = await page.evaluate(() => performance.now());
const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download All (.zip)' }).click()]);
const t2 = await page.evaluate(() => performance.now());
const loaf = await page.evaluate(() => window.__loaf);
const lt = await page.evaluate(() => window.__lt);
console.log('convert', Math.round(t0), 'done', Math.round(t1), 'zip', Math.round(t2));
console.log(JSON.stringify(lt));
for (const l of loaf) if (l.start > t0 - 10 && l.block > 0) console.log(JSON.stringify(l));
await browser.close();
}
