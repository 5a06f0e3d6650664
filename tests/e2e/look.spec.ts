import { readFileSync } from 'node:fs';
import { expect, test } from './shared-page.ts';
import sharp from 'sharp';
import { smartTarget } from '../../core/look.ts';
import { ssimulacra2Metric, type Ssimulacra2 } from '../../wasm/ssimulacra2/metric.ts';
import { lookTiles } from '../../core/look.ts';
import { lookView } from '../../workers/pipeline/look.ts';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { convertAll, downloadJob, sharpReadable } from './convert-helpers.ts';
import { chooseFormat, fixtureBytes, pickFiles } from './helpers.ts';

/**
 * How an output looks: every lossy output is judged (SSIMULACRA2 on a view of full-resolution tiles) and its job says
 * so, with the number on hover and in Compare; Smart compression holds each image to its level's score. The numbers
 * are checked here against the same metric run in Node on the downloaded file, decoded by sharp.
 */

async function rgba(bytes: Buffer) {
  const { data, info } = await sharp(sharpReadable(bytes)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The committed metric, compiled once for the file's tests. */
let metric: Promise<Ssimulacra2> | null = null;

/** The score the app should have shown: the output's tiles against the source's, as the worker judges them. */
async function scoreInNode(source: Buffer, output: Buffer): Promise<number> {
  metric ??= WebAssembly.compile(readFileSync(new URL('../../wasm/ssimulacra2/ssimulacra2.wasm', import.meta.url))).then((module) => ssimulacra2Metric(module));
  const [original, converted] = [await rgba(source), await rgba(output)];
  const tiles = lookTiles(original);
  return (await metric)(lookView(original, tiles), lookView(converted, tiles));
}

test('a lossy output shows how it looks, with its score on hover and in Compare', async ({ page }) => {
  await pickFiles(page, [FIXTURES.largeJpeg]);
  await chooseFormat(page, 'JPG');
  await convertAll(page, 1);
  const look = page.getByTestId('look');
  await expect(look).toHaveText(/^\s*·\s*(Looks the same|Small differences|Visible differences)$/);
  const score = Number(await look.getAttribute('data-score'));
  await expect(look).toHaveAttribute('title', `SSIMULACRA2 ${score.toFixed(1)} of 100`);
  expect(Math.abs(score - (await scoreInNode(fixtureBytes(FIXTURES.largeJpeg), await downloadJob(page, 'large.jpg'))))).toBeLessThan(1);

  await page.getByRole('button', { name: 'Compare large.jpg' }).click();
  await expect(page.getByTestId('compare-look')).toHaveText(new RegExp(`· (Looks the same|Small differences|Visible differences) \\(SSIMULACRA2 ${score.toFixed(1).replace('.', '\\.')} of 100\\)`));
  await page.keyboard.press('Escape');
});

test('a lossless output is not judged: nothing was lost to judge', async ({ page }) => {
  await pickFiles(page, [FIXTURES.png]);
  await chooseFormat(page, 'PNG');
  await convertAll(page, 1);
  await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(1);
  await expect(page.getByTestId('look')).toHaveCount(0);
});

test('Smart compression: each image at or above its level’s score, at the quality it chose, the file as judged', async ({ page }) => {
  const files = [FIXTURES.largeJpeg, FIXTURES.jpeg, FIXTURES.secondJpeg];
  await pickFiles(page, files);
  await chooseFormat(page, 'WebP');
  await page.getByRole('switch', { name: /Smart compression/ }).check();
  const level = page.getByLabel('Compression level', { exact: true });
  await level.fill('90');
  const target = smartTarget(90);
  await expect(page.getByText(`Each image scores at least ${target} of 100 on SSIMULACRA2`)).toBeVisible();
  await convertAll(page, files.length);
  const jobs = page.locator('[data-testid="job"][data-status="completed"]');
  await expect(jobs).toHaveCount(files.length);
  for (const name of files) {
    const job = jobs.filter({ hasText: name });
    const look = job.getByTestId('look');
    const score = Number(await look.getAttribute('data-score'));
    const quality = Number(await look.getAttribute('data-smart-quality'));
    expect(score, name).toBeGreaterThanOrEqual(target);
    expect(quality, name).toBeGreaterThanOrEqual(1);
    expect(quality, name).toBeLessThanOrEqual(100);
    await expect(look).toHaveAttribute('title', `SSIMULACRA2 ${score.toFixed(1)} of 100 · Smart quality ${quality}`);
    const output = await downloadJob(page, name.replace(/\.jpg$/, '.webp'));
    expect(Math.abs(score - (await scoreInNode(fixtureBytes(name), output))), name).toBeLessThan(1);
  }
});
