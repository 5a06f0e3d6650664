import { expect, test } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { convertAll, downloadAllZip, magicFormat } from './convert-helpers.ts';
import { chooseFormat, convertButton, openConverter, pickFiles, watchCspViolations } from './helpers.ts';

/** The app is served as a host would serve it (the build's `_headers`, applied by the preview server). */

test('the page, its scripts and the service worker come with the shipped headers; index.html and sw.js are never cached, hashed assets for a year', async ({ page }) => {
  const home = await page.request.get('/');
  const csp = home.headers()['content-security-policy']!;
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("connect-src 'self';");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(home.headers()).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' });
  expect(home.headers()['permissions-policy']).toContain('camera=()');
  expect((await page.request.get('/sw.js')).headers()['cache-control']).toBe('no-cache');

  // Not one inline script in the page: the CSP forbids them.
  const html = await home.text();
  expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
  const [script] = html.match(/\/assets\/[^"]+\.js/)!;
  expect((await page.request.get(script)).headers()['cache-control']).toBe('public, max-age=31536000, immutable');

  const headersFile = await (await page.request.get('/_headers')).text();
  expect(headersFile).toContain(`Content-Security-Policy: ${csp}`);
  const robots = await page.request.get('/robots.txt');
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
});

test('add, convert to every format and zip under the Content-Security-Policy with no violation', async ({ page }) => {
  const violations = await watchCspViolations(page);
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.transparent]);
  await convertAll(page, 2);
  const outputs = ['webp'];
  for (const [format, magic] of [['JPG', 'jpeg'], ['PNG', 'png'], ['AVIF', 'avif'], ['JPEG XL', 'jxl']] as const) {
    await chooseFormat(page, format);
    await convertButton(page).click();
    outputs.push(magic);
    await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(outputs.length * 2);
  }
  const zip = await downloadAllZip(page);
  expect(Object.values(zip).map(magicFormat).sort()).toEqual(outputs.flatMap((f) => [f, f]).sort());
  expect(await violations()).toEqual([]);
});
