import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { chooseFormat, convertButton, enterEmail, fileCard, fixtureBytes, openConverter, pickFiles } from './helpers.ts';
import { startVersionedServer, type VersionedServer } from './versionedServer.ts';

const DIST = join(import.meta.dirname, '../../dist');
const UPDATE_PORT = Number(process.env.E2E_UPDATE_PORT || 4176);

/** The installed app: its manifest and icons, and the files the system hands it (share target, "Open with"). */

test('the manifest has an id, standalone display, one theme colour, PNG icons 192 and 512 and a maskable one, screenshots, a share target and file handlers', async ({ page }) => {
  await openConverter(page);
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest).toMatchObject({ id: '/', start_url: '/', scope: '/', display: 'standalone', name: 'Pixel Converter' });
  expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);
  expect(await page.locator('link[rel="apple-touch-icon"]').count()).toBe(1);

  const icons = manifest.icons as { src: string; sizes: string; type: string; purpose?: string }[];
  for (const [size, purpose] of [['192x192', undefined], ['512x512', undefined], ['512x512', 'maskable']] as const) {
    const icon = icons.find((i) => i.sizes === size && i.purpose === purpose && i.type === 'image/png');
    expect(icon, `${size} ${purpose ?? 'any'}`).toBeDefined();
    const bytes = await (await page.request.get(new URL(icon!.src, page.url() + href!.slice(1)).href)).body();
    const { width, height, format } = await sharp(bytes).metadata();
    expect([format, `${width}x${height}`]).toEqual(['png', size]);
  }
  const screenshots = manifest.screenshots as { src: string; sizes: string; form_factor: string }[];
  expect(screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
  for (const shot of screenshots) {
    const { width, height } = await sharp(await (await page.request.get(shot.src)).body()).metadata();
    expect(`${width}x${height}`).toBe(shot.sizes);
  }
  expect(manifest.share_target).toMatchObject({ action: '/share-target', method: 'POST', enctype: 'multipart/form-data' });
  expect(manifest.share_target.params.files[0].accept).toContain('image/jpeg');
  expect(manifest.file_handlers[0].accept).toEqual({ 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/webp': ['.webp'], 'image/avif': ['.avif'], 'image/heic': ['.heic', '.heif', '.hif'], 'image/jxl': ['.jxl'], 'image/tiff': ['.tiff', '.tif'], 'image/gif': ['.gif'], 'image/bmp': ['.bmp', '.dib'] });
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test("Chromium finds the app installable (its own installability check, through the DevTools protocol)", async ({ page }) => {
    await openConverter(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const devtools = await page.context().newCDPSession(page);
    const { installabilityErrors } = (await devtools.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    // A Playwright context is an incognito profile, where Chromium never installs: that is the only objection allowed.
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    const { url, errors } = (await devtools.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
  });

  test('images shared from another app (a POST to the share target) arrive in Selected Files through the same validation as a drop', async ({ page }) => {
    await openConverter(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const files = [
      { name: 'shared photo.jpg', type: 'image/jpeg', bytes: [...fixtureBytes(FIXTURES.jpeg)] },
      { name: 'shared.png', type: 'image/png', bytes: [...fixtureBytes(FIXTURES.png)] },
      { name: 'notes.txt', type: 'text/plain', bytes: [...Buffer.from('not an image')] },
    ];
    const landing = await page.evaluate(async (items) => {
      const form = new FormData();
      for (const item of items) form.append('images', new File([new Uint8Array(item.bytes)], item.name, { type: item.type }));
      const response = await fetch('/share-target', { method: 'POST', body: form });
      return new URL(response.url).pathname + new URL(response.url).search;
    }, files);
    expect(landing).toBe('/?shared');
    await openConverter(page, landing);
    await expect(page.getByRole('heading', { name: 'Selected Files (2)' })).toBeVisible();
    await expect(fileCard(page, 'shared photo.jpg').getByText('Ready to convert')).toBeVisible();
    await expect(fileCard(page, 'shared.png').getByText('Ready to convert')).toBeVisible();
    await expect(page.getByText('Added 2 images', { exact: true })).toBeVisible();
    // Taken once: the address is clean and a reload adds nothing again.
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-alive', '');
    await expect(page.getByRole('heading', { name: /Selected Files/ })).toHaveCount(0);
  });
});

/** Stands in for the browser's launch queue (no file manager to drive headless): it delivers files as handles. */
async function feedLaunchQueue(page: Page, files: { name: string; type: string; bytes: number[] }[]) {
  await page.addInitScript((items) => {
    // Chromium has its own (a getter on Window.prototype): this one shadows it.
    Object.defineProperty(window, 'launchQueue', {
      configurable: true,
      value: {
        setConsumer(consumer: (params: { files: { getFile(): Promise<File> }[] }) => void) {
          consumer({ files: items.map((item) => ({ getFile: async () => new File([new Uint8Array(item.bytes)], item.name, { type: item.type }) })) });
        },
      },
    });
  }, files);
}

test('images opened with the installed app (launchQueue) arrive in Selected Files; a file that is not an image is ignored', async ({ page }) => {
  await feedLaunchQueue(page, [
    { name: 'opened.webp', type: 'image/webp', bytes: [...fixtureBytes(FIXTURES.webp)] },
    { name: 'broken.jpg', type: 'image/jpeg', bytes: [...Buffer.alloc(300, 7)] },
    { name: 'readme.txt', type: 'text/plain', bytes: [...Buffer.from('text')] },
  ]);
  await openConverter(page);
  await expect(page.getByRole('heading', { name: 'Selected Files (2)' })).toBeVisible();
  await expect(fileCard(page, 'opened.webp').getByText('Ready to convert')).toBeVisible();
  await expect(fileCard(page, 'broken.jpg').getByText('Invalid file format. File may be corrupted or malicious.')).toBeVisible();
});

/**
 * Holds what the page's service worker serves from its precache for URLs containing `part` until the returned function
 * is called: its cache lookups wait (Workbox's precache answers through them), in the worker in control now.
 */
async function holdInServiceWorker(page: Page, part: string): Promise<() => Promise<void>> {
  const [worker] = page.context().serviceWorkers();
  if (!worker) throw new Error('no service worker to hold a request in');
  await worker.evaluate((held) => {
    const scope = self as unknown as { releaseHeld?: () => void };
    const waiting = new Promise<void>((resolve) => (scope.releaseHeld = resolve));
    for (const prototype of [CacheStorage.prototype, Cache.prototype]) {
      const match = prototype.match as (this: unknown, request: RequestInfo | URL, options?: CacheQueryOptions) => Promise<Response | undefined>;
      prototype.match = async function (this: unknown, request: RequestInfo | URL, options?: CacheQueryOptions) {
        if (String(request instanceof Request ? request.url : request).includes(held)) await waiting;
        return match.call(this, request, options);
      };
    }
  }, part);
  return () => worker.evaluate(() => (self as unknown as { releaseHeld: () => void }).releaseHeld());
}

test.describe('updates', () => {
  test.use({ serviceWorkers: 'allow' });
  let host: VersionedServer;
  let nextVersion: string;

  test.beforeAll(async () => {
    // The next deploy: this build with a changed service worker, which is what makes a browser see a new version.
    nextVersion = mkdtempSync(join(tmpdir(), 'pixel-next-'));
    cpSync(DIST, nextVersion, { recursive: true });
    appendFileSync(join(nextVersion, 'sw.js'), '\n// the next version\n');
    host = await startVersionedServer(UPDATE_PORT, DIST);
  });
  test.afterAll(async () => {
    await host?.close();
    rmSync(nextVersion, { recursive: true, force: true });
  });

  test('a new version waits while a batch runs, then "A new version is available — Reload" loads it', async ({ page }) => {
    await openConverter(page, `${host.origin}/`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    // A batch that runs until the test lets it end: the service worker in control serves the codecs from its
    // precache, so the AVIF encoder is held there (a route on the page never sees that request).
    const release = await holdInServiceWorker(page, 'avif_enc');
    await pickFiles(page, [FIXTURES.jpeg]);
    await chooseFormat(page, 'AVIF');
    await enterEmail(page);
    await convertButton(page).click();
    const running = page.getByRole('status').filter({ hasText: /^Converting… 0 of 1/ });
    await expect(running).toBeVisible();

    host.deploy(nextVersion);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(true);
    // Installed and waiting, not in control, and not offered while the batch runs.
    await expect(running).toBeVisible();
    await expect(page.getByText('A new version is available')).toHaveCount(0);

    await release();
    await expect(page.getByTestId('job').first()).toHaveAttribute('data-status', 'completed');
    const offer = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await expect(offer).toBeVisible();
    await expect(offer).toContainText('A new version is available — Reload');
    await Promise.all([page.waitForEvent('load'), offer.getByRole('button', { name: 'Reload' }).click()]);
    await expect(page.locator('html')).toHaveAttribute('data-alive', '');
    // The new worker is the one in control now, with nothing left waiting.
    expect(await page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      const script = await (await fetch(registration.active!.scriptURL, { cache: 'no-store' })).text();
      return { waiting: registration.waiting !== null, next: script.includes('the next version') };
    })).toEqual({ waiting: false, next: true });
  });
});
