import { expect, test, type Response } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { axe, dropFiles, fileCard, fixtureBytes, holdRequests, openConverter, pickFiles } from './helpers.ts';

test('the viewport is not zoomable, as the spec asks', async ({ page }) => {
  await openConverter(page);
  await expect(page.locator('meta[name="viewport"]')).toHaveAttribute('content', /maximum-scale=1.0, user-scalable=no/);
});

test('an unknown path shows 404, "Oops! Page not found", a link home, and logs the path; the converter is never in the page', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  // Anything the parser or a script puts in the page is seen here, before it can be painted.
  await page.addInitScript(() => {
    const seen = { converter: false };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      if (document.body?.textContent?.includes('Add Images')) seen.converter = true;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-alive', '');
  expect(await page.evaluate(() => (window as unknown as { __seen: { converter: boolean } }).__seen.converter)).toBe(false);
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect.poll(() => logged.some((line) => line.includes('/no/such/page'))).toBe(true);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Add Images')).toBeVisible();
});

test('privacy, donation strip and footer say what the spec says', async ({ page }) => {
  await openConverter(page);
  await expect(page.getByText('Love this tool? Support its development:')).toBeVisible();
  for (const name of ['Donate via PayPal', 'Buy me a coffee']) {
    const link = page.getByRole('link', { name });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(link).toHaveAttribute('href', /^https:\/\//);
  }
  await expect(page.getByRole('contentinfo')).toContainText('never leave your device');
  await expect(page.getByRole('contentinfo')).toContainText('Files are never stored');
  await expect(page.getByRole('contentinfo')).toContainText('results wait on this device until you download or clear them');
  await expect(page.getByText('Your e-mail is not stored, and your files stay on this device.')).toBeVisible();
});

test('a 360 px phone shows the page without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.svg]);
  await expect(page.getByText('Ready to convert')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('axe finds no WCAG A/AA violations on / (the spec’s viewport rule aside)', async ({ page }) => {
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg, FIXTURES.svg]);
  await expect(page.getByText('Ready to convert')).toBeVisible();
  await page.getByText('Added 1 image', { exact: true }).waitFor();
  const results = await axe(page)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .disableRules(['meta-viewport'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('the page is in index.html before any script runs, and comes alive without a hydration mismatch', async ({ page, request }) => {
  const html = await (await request.get('/')).text();
  const root = html.slice(html.indexOf('<div id="root"'));
  for (const text of ['Add Images', 'Tap here or drag &amp; drop images', 'Conversion Settings', 'Upload images to start converting']) expect(root).toContain(text);

  const problems: string[] = [];
  page.on('console', (message) => {
    // Service workers are blocked in these tests (playwright.config.ts): Playwright says so, and the offline copy
    // cannot be set up. offline.spec.ts and install.spec.ts run with them.
    const blocked = /blocked by Playwright|The offline copy could not be set up/.test(message.text());
    if ((message.type() === 'error' || message.type() === 'warning') && !blocked) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  // The settings are hydrated after the rest of the page (HydratedLater): marked as parsed, they must be the same
  // elements once they respond, not rendered again in place of the server's.
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => document.querySelector('.settings')?.setAttribute('data-parsed', '')));
  await openConverter(page);
  // Alive: a setting responds, which only a hydrated page does.
  await page.getByRole('button', { name: 'Rotate right' }).click();
  await expect(page.getByTestId('rotation-value')).toHaveText('90°');
  await expect(page.locator('.settings[data-parsed]')).toHaveCount(1);
  expect(problems).toEqual([]);
});

test('the script that hydrates the page asks to be compiled as it downloads (a compile hint), not function by function', async ({ page }) => {
  // The responses, not their bodies: a body read begun for a script that arrives later (a chunk the idle page loads)
  // would still be pending when the test ends, and fail it ("Test ended"). Only the scripts before the page is alive count.
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await openConverter(page);
  const hydrating = (await Promise.all(scripts.slice().map((response) => response.text()))).filter((code) => code.includes('hydrateRoot'));
  expect(hydrating).toHaveLength(1);
  expect(hydrating[0]!.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
});

test('without JavaScript the page still shows what it is, and an unknown path its 404 (the first paint is the HTML)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Convert images in your browser' })).toBeVisible();
  await expect(page.getByText('Add Images')).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect(page.getByText('Add Images')).toHaveCount(0);
  await context.close();
});

test('files picked or dropped before the script has run are added once it does', async ({ page }) => {
  const release = await holdRequests(page, '**/assets/main-*.js');
  await page.goto('/');
  await expect(page.getByText('Add Images')).toBeVisible();
  await pickFiles(page, [FIXTURES.jpeg]);
  await dropFiles(page, [{ name: 'dropped.png', type: 'image/png', bytes: fixtureBytes(FIXTURES.png) }]);
  await expect(page.locator('html')).not.toHaveAttribute('data-alive');
  release();
  await expect(page.getByRole('heading', { name: 'Selected Files (2)' })).toBeVisible();
  await expect(fileCard(page, FIXTURES.jpeg).getByText('Ready to convert')).toBeVisible();
  await expect(fileCard(page, 'dropped.png').getByText('Ready to convert')).toBeVisible();
  // Once alive, a pick goes through React alone: added once, not twice.
  await pickFiles(page, [FIXTURES.webp]);
  await expect(page.getByRole('heading', { name: 'Selected Files (3)' })).toBeVisible();
});
