import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { FORMATS } from '../../core/formats';
import { ORIENTED_SOURCES, meanDifference, referenceRendering, thumbnailOf } from '../fixtures/oriented';
import { ROUTE_CASES, type RouteCase } from '../route-cases';
import { convertAll, downloadAllZip, sharpReadable } from './convert-helpers';
import { FIXTURE_DIR, chooseFormat, openConverter } from './helpers';

/**
 * A photo comes out as it was shot on every route a job can take (core/plan.ts planRoute): each case of
 * tests/route-cases.ts, to each format, with every source that says which way up it is (tests/fixtures/oriented.ts),
 * each output shown as a viewer shows it and compared on a small thumbnail with the source's reference rendering
 * (sharp; libheif's heif-convert for HEIC) framed the same way. The route each job took is read from its card.
 */

const ORIENTED_DIR = join(FIXTURE_DIR, 'oriented');

/** Within this mean difference (0–255, a 24 × 16 thumbnail) an output is the reference; a turn or a mirror is 30 or more. */
const SAME_PICTURE = 12;

async function applySettings(page: Page, { settings }: RouteCase): Promise<void> {
  if (settings.enableCompression === false) await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
  if (settings.autoCompress) await page.getByRole('switch', { name: /Smart compression/ }).check();
  if (settings.enableTargetSize) {
    await page.getByRole('switch', { name: /Target file size/ }).check();
    await page.getByLabel('Target size (KB)').fill(String(settings.targetFileSize));
  }
  if (settings.resizeWidth) await page.getByLabel('Width (px)').fill(String(settings.resizeWidth));
  if (settings.resizeHeight) await page.getByLabel('Height (px)').fill(String(settings.resizeHeight));
  for (let turn = 0; turn < (settings.rotation ?? 0) / 90; turn++) await page.getByRole('button', { name: /Rotate right/ }).click();
}

/** An output as a viewer shows it (its own orientation applied, none expected), as PNG. */
const asShown = async (output: Buffer): Promise<Buffer> => sharp(sharpReadable(output)).rotate().png().toBuffer();

for (const routeCase of ROUTE_CASES) {
  test(`every oriented source comes out upright with ${routeCase.name}, to every format`, async ({ page }) => {
    test.setTimeout(600_000);
    const expected = new Map<string, { thumbnail: Buffer; width: number; height: number }>();
    for (const { name } of ORIENTED_SOURCES) {
      const framed = await routeCase.framed(await referenceRendering(join(ORIENTED_DIR, name)));
      const { width, height } = await sharp(framed).metadata();
      expected.set(name, { thumbnail: await thumbnailOf(framed), width: width!, height: height! });
    }
    await openConverter(page);
    await page.getByTestId('file-input').setInputFiles(ORIENTED_SOURCES.map(({ name }) => join(ORIENTED_DIR, name)));
    await expect(page.getByText('Ready to convert')).toHaveCount(ORIENTED_SOURCES.length);
    await applySettings(page, routeCase);
    const wrong: string[] = [];
    const routes = new Set<string>();
    for (const format of routeCase.formats) {
      const output = FORMATS[format];
      await chooseFormat(page, output.label as 'JPG');
      await convertAll(page, ORIENTED_SOURCES.length);
      await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(ORIENTED_SOURCES.length);
      for (const route of await page.getByTestId('job').evaluateAll((jobs) => jobs.map((job) => job.getAttribute('data-route')))) routes.add(`${output.label}: ${route}`);
      const files = await downloadAllZip(page);
      for (const { name } of ORIENTED_SOURCES) {
        const outputName = `${name.replace(/\.[^.]+$/, '')}.${output.extension}`;
        const bytes = files[outputName];
        const want = expected.get(name)!;
        if (!bytes) {
          wrong.push(`${output.label} ${name}: no ${outputName} in the zip`);
          continue;
        }
        const shown = await asShown(bytes);
        const { width, height } = await sharp(shown).metadata();
        const difference = meanDifference(await thumbnailOf(shown), want.thumbnail);
        if (width !== want.width || height !== want.height || difference > SAME_PICTURE) {
          wrong.push(`${output.label} ${name}: ${width} × ${height} (want ${want.width} × ${want.height}), ${difference.toFixed(1)} from the reference`);
        }
      }
      await page.getByRole('button', { name: 'Clear finished' }).click();
      await expect(page.getByTestId('job')).toHaveCount(0);
    }
    test.info().annotations.push({ type: 'routes', description: [...routes].join(', ') });
    console.log(`${routeCase.name}: routes ${[...routes].join(', ')}; ${wrong.length} wrong${wrong.length ? `:\n  ${wrong.join('\n  ')}` : ''}`);
    expect(wrong).toEqual([]);
  });
}
