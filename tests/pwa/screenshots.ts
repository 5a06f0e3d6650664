/**
 * The manifest's screenshots (public/screenshots/), for the richer install sheet: the app as a visitor sees it after
 * converting a few images, on a phone (390 × 844 at 2×, "narrow") and on a desktop (1280 × 800, "wide"). Run after a
 * build, with `npm run screenshots`; commit what it writes when the page's look changes.
 */
import { chromium, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath } from '../../playwright.config.ts';
import { makeFixtures } from '../fixtures/make-fixtures.ts';

const PORT = 4188;
const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'tests/e2e/.generated');
const OUT = join(ROOT, 'public/screenshots');

async function convertSome(page: Page): Promise<void> {
  await page.goto(`http://localhost:${PORT}/`);
  await page.locator('html[data-alive]').waitFor();
  await page.getByTestId('file-input').setInputFiles(['photo.jpg', 'camera.jpg', 'transparent.png', 'second.jpg'].map((name) => join(FIXTURES, name)));
  await page.getByLabel('Email address').fill('you@example.com');
  await page.getByRole('button', { name: /^Convert \d+ images?$/ }).click();
  await page.locator('[data-testid="job"][data-status="completed"]').nth(3).waitFor({ timeout: 60_000 });
  // Filling in the address scrolled the settings column to it: back to the top, like the page.
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    for (const element of document.querySelectorAll('*')) if (element.scrollTop > 0) element.scrollTop = 0;
  });
  // The completion toast fades: wait it out, so the picture is of the page.
  await page.waitForTimeout(6000);
}

await makeFixtures(FIXTURES);
const server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort'], { cwd: ROOT, stdio: 'ignore' });
try {
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await convertSome(phone);
  await phone.screenshot({ path: join(OUT, 'phone.png') });
  const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await convertSome(desktop);
  await desktop.screenshot({ path: join(OUT, 'desktop.png') });
  await browser.close();
} finally {
  server.kill();
}
