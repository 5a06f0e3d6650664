import { statSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { fakeBackendPort, integrationsEnv, integrationsPort } from '../../playwright.config.ts';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { KEPT_SOURCE_SIZES } from '../keptBatch.ts';
import { convertAll, downloadAllZip } from './convert-helpers.ts';
import { chooseFormat, convertButton, fixture, holdHeicDecoder, openConverter, pickFiles, watchCspViolations } from './helpers.ts';
import { startFakeBackend, type FakeBackend } from './fakeBackend.ts';

/** The spec's section 7, against the build configured with integrationsEnv (playwright.config.ts). */
const CONFIGURED_APP = `http://localhost:${integrationsPort}/`;
const MB = 1024 * 1024;
const FILES = ['camera.jpg', 'photo.png'];

const STARTED_FIELDS = [
  'user_email', 'user_domain', 'conversion_count', 'output_format', 'quality_setting', 'resize_width', 'resize_height',
  'strip_metadata', 'enable_compression', 'compression_level', 'total_file_size_mb', 'file_types', 'file_names',
  'timestamp', 'date', 'time', 'timezone', 'triggered_from', 'user_agent', 'action', 'session_id',
];
const COMPLETED_FIELDS = [
  'user_email', 'user_domain', 'conversion_count', 'successful_conversions', 'failed_conversions', 'output_format',
  'quality_setting', 'total_output_size_mb', 'timestamp', 'date', 'time', 'timezone', 'triggered_from', 'action', 'session_id',
];

/** Date and time as a Tokyo clock shows them, computed here independently of the app's code. */
function tokyoClock(timestamp: string) {
  const [date, time] = new Date(timestamp).toLocaleString('sv-SE', { timeZone: 'Asia/Tokyo', hourCycle: 'h23' }).split(' ');
  return { date, time };
}

async function convertBoth(page: Page, email: string) {
  await openConverter(page, CONFIGURED_APP);
  await pickFiles(page, FILES);
  await page.getByLabel('Email address').fill(email);
  await convertButton(page).click();
  await expect(page.getByTestId('job')).toHaveCount(2);
  await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(2);
}

function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

// One fake backend at a time: each test starts it on the port the configured build calls.
test.describe('configured build: the e-mail RPC and the webhook', { lock: 'fake-backend-port' }, () => {
  test.use({ timezoneId: 'Asia/Tokyo' });
  let backend: FakeBackend;
  test.beforeEach(async () => {
    backend = await startFakeBackend(fakeBackendPort);
  });
  test.afterEach(async () => {
    await backend.close();
  });

  test('a two-file batch calls upsert_pixel_email with the anonymous key and posts each webhook action once with exactly the spec fields', async ({ page }) => {
    const violations = await watchCspViolations(page);
    const csp = (await page.request.get(CONFIGURED_APP)).headers()['content-security-policy'];
    expect(csp).toContain(`connect-src 'self' http://127.0.0.1:${fakeBackendPort};`);
    const before = Date.now();
    await convertBoth(page, '  Ann.Lee@Example.COM ');
    // The calls below go out from a cross-origin isolated page (COEP require-corp): CORS requests, which it lets through.
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await expect(page.getByText("Your e-mail address, conversion statistics and file names are sent to this site's operator", { exact: false })).toBeVisible();
    const outputs = await downloadAllZip(page);
    const outputBytes = Object.values(outputs).reduce((sum, bytes) => sum + bytes.length, 0);
    await expect.poll(() => backend.webhookCalls('image_conversion_completed').length).toBe(1);
    const userAgent = await page.evaluate(() => navigator.userAgent);

    const [rpc, ...moreRpc] = backend.rpcCalls();
    expect(moreRpc).toEqual([]);
    expect(rpc!.headers.apikey).toBe(integrationsEnv.VITE_SUPABASE_ANON_KEY);
    expect(rpc!.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(rpc!.body)).toEqual({ user_email: 'ann.lee@example.com' });

    const webhookPosts = backend.requests.filter((r) => r.path === '/webhook');
    expect(webhookPosts).toHaveLength(2);
    for (const post of webhookPosts) expect(post.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);

    const [started] = backend.webhookCalls('image_conversion_started');
    expect([...started!.keys()]).toEqual(STARTED_FIELDS);
    const inputBytes = FILES.reduce((sum, name) => sum + statSync(fixture(name)).size, 0);
    const startedAt = started!.get('timestamp')!;
    expect(Object.fromEntries(started!)).toEqual({
      user_email: 'ann.lee@example.com',
      user_domain: 'example.com',
      conversion_count: '2',
      output_format: 'webp',
      quality_setting: '80',
      resize_width: '',
      resize_height: '',
      strip_metadata: 'true',
      enable_compression: 'true',
      compression_level: '85',
      total_file_size_mb: (inputBytes / MB).toFixed(2),
      file_types: 'image/jpeg, image/png',
      file_names: 'camera.jpg, photo.png',
      timestamp: startedAt,
      ...tokyoClock(startedAt),
      timezone: 'Asia/Tokyo',
      triggered_from: CONFIGURED_APP,
      user_agent: userAgent,
      action: 'image_conversion_started',
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(Date.parse(startedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(startedAt)).toBeLessThanOrEqual(Date.now());

    const [completed] = backend.webhookCalls('image_conversion_completed');
    expect([...completed!.keys()]).toEqual(COMPLETED_FIELDS);
    const completedAt = completed!.get('timestamp')!;
    expect(Object.fromEntries(completed!)).toEqual({
      user_email: 'ann.lee@example.com',
      user_domain: 'example.com',
      conversion_count: '2',
      successful_conversions: '2',
      failed_conversions: '0',
      output_format: 'webp',
      quality_setting: '80',
      total_output_size_mb: (outputBytes / MB).toFixed(2),
      timestamp: completedAt,
      ...tokyoClock(completedAt),
      timezone: 'Asia/Tokyo',
      triggered_from: CONFIGURED_APP,
      action: 'image_conversion_completed',
      session_id: started!.get('session_id'),
    });
    expect(Date.parse(completedAt)).toBeGreaterThanOrEqual(Date.parse(startedAt));

    // Images never leave the device: every request that reached the backend is a few hundred bytes of form or JSON.
    for (const request of backend.requests) expect(request.body.length).toBeLessThan(2048);
    expect(await violations()).toEqual([]);
  });

  test('when the backend and the webhook answer 500, the batch converts all the same and the failures are only logged', async ({ page }) => {
    backend.answer = 'error-500';
    const errors = consoleErrors(page);
    await convertBoth(page, 'ann@example.com');
    expect(Object.keys(await downloadAllZip(page)).sort()).toEqual(['camera.webp', 'photo.webp']);
    await expect.poll(() => backend.webhookCalls('image_conversion_completed').length).toBe(1);
    await expect.poll(() => backend.rpcCalls().length).toBe(2);
    await expect.poll(() => errors.filter((e) => /failed \(conversion goes on\)/.test(e)).length).toBeGreaterThanOrEqual(3);
    await expect(page.getByText(/failed|error/i).and(page.getByRole('status'))).toHaveCount(0);
  });

  test('a run a reload interrupts still reports its end: the next page resumes it from the device and posts the completed action in the same session', async ({ page }) => {
    const jobsIn = (status: string) => page.locator(`[data-testid="job"][data-status="${status}"]`);
    // The HEIC's decoder held: its job stays unfinished, its source kept, until the reload.
    const unhold = await holdHeicDecoder(page);
    await openConverter(page, CONFIGURED_APP);
    await expect(page.locator('html')).toHaveAttribute('data-batch', 'device');
    await page.getByTestId('file-input').setInputFiles([fixture(FIXTURES.jpeg), fixture(FIXTURES.heic)]);
    await expect(page.getByText('Ready to convert')).toHaveCount(2);
    await chooseFormat(page, 'AVIF');
    await page.getByLabel('Email address').fill('ann@example.com');
    await convertButton(page).click();
    await expect(jobsIn('completed')).toHaveCount(1);
    const heicBytes = statSync(fixture(FIXTURES.heic)).size;
    await expect.poll(() => page.evaluate<number[]>(`(async () => { ${KEPT_SOURCE_SIZES} })()`)).toContain(heicBytes);
    await expect(jobsIn('processing')).toHaveCount(1);
    await expect.poll(() => backend.webhookCalls('image_conversion_started').length).toBe(1);

    await unhold();
    await page.reload();
    await expect(page.getByText('Your last batch is back')).toBeVisible();
    await expect(jobsIn('completed')).toHaveCount(2);
    await expect.poll(() => backend.webhookCalls('image_conversion_completed').length).toBe(1);
    const [started] = backend.webhookCalls('image_conversion_started');
    const [completed] = backend.webhookCalls('image_conversion_completed');
    // The resumed run: the one job the reload interrupted.
    expect(Object.fromEntries(completed!)).toMatchObject({
      user_email: 'ann@example.com',
      conversion_count: '1',
      successful_conversions: '1',
      failed_conversions: '0',
      output_format: 'avif',
      session_id: started!.get('session_id'),
    });
    expect(backend.webhookCalls('image_conversion_started')).toHaveLength(1);
  });

  test('when the backend and the webhook are unreachable, the batch converts all the same and the failures are only logged', async ({ page }) => {
    await backend.close();
    const errors = consoleErrors(page);
    await convertBoth(page, 'ann@example.com');
    expect(Object.keys(await downloadAllZip(page)).sort()).toEqual(['camera.webp', 'photo.webp']);
    await expect.poll(() => errors.filter((e) => /webhook call failed \(conversion goes on\)/.test(e)).length).toBe(2);
    await expect.poll(() => errors.some((e) => /Saving the e-mail address failed/.test(e))).toBe(true);
    expect(backend.requests).toEqual([]);
  });
});

test.describe('unconfigured build', () => {
  test("no request leaves the page's origin during add, convert and zip, and the privacy text is the spec's", async ({ page, context }) => {
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    await openConverter(page);
    await expect(page.getByText('Your e-mail is not stored, and your files stay on this device.', { exact: false })).toBeVisible();
    await pickFiles(page, FILES);
    await convertAll(page, 2);
    expect(Object.keys(await downloadAllZip(page)).sort()).toEqual(['camera.webp', 'photo.webp']);
    const origin = new URL(page.url()).origin;
    const network = requested.filter((url) => /^https?:/.test(url));
    expect(network.length).toBeGreaterThan(0);
    expect(network.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });
});
