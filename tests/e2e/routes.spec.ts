import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ConversionSettings } from '../../core/contract.ts';
import { FORMATS } from '../../core/formats.ts';
import { planJob } from '../../core/plan.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { ORIENTED_SOURCES, orientedHeader } from '../fixtures/oriented.ts';
import { ROUTE_CASES, expectedOutputs, formatsNamed, wrongOutputs, type RouteCase } from '../route-cases.ts';
import { convertAll, downloadAllZip } from './convert-helpers.ts';
import { FIXTURE_DIR, chooseFormat, openConverter } from './helpers.ts';

/**
 * A photo comes out as it was shot on every route a job can take (core/plan.ts planRoute): each case of
 * tests/route-cases.ts, to each format, with every source that says which way up it is (tests/fixtures/oriented.ts),
 * each output shown as a viewer shows it and compared on a small thumbnail with the source's reference rendering
 * (sharp; libheif's heif-convert for HEIC) framed the same way. The route each job took is read from its card: the
 * plan's, or the pixels where the browser could not take a bitmap or rows, and always the plan's for a photo stored
 * upright; tests/unit/routes.test.ts holds the cases to planning every route there is.
 */

const ORIENTED_DIR = join(FIXTURE_DIR, 'oriented');
const UPRIGHT_PHOTO = 'jpeg-exif-1.jpg';

/** The route the page plans for a source with these settings in Chromium (whose canvas encodes JPEG, PNG and WebP). */
function plannedRoute(name: string, settings: ConversionSettings): string {
  const source = ORIENTED_SOURCES.find((candidate) => candidate.name === name)!;
  return planJob(orientedHeader(source), settings, () => true).route;
}

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

/**
 * One page walks every case, as a visitor changes settings between batches: the workers and the codecs they compiled
 * stay, where a page a case spent a second or two a format starting them again (26 passes); each case starts from
 * "Reset settings" and "Clear all", and what goes wrong is gathered case by case, every case walked.
 */
test('every oriented source comes out upright on every route, in each case of tests/route-cases.ts to each of its formats', async ({ page }) => {
  test.setTimeout(900_000);
  await openConverter(page);
  const wrongByCase: Record<string, string[]> = {};
  for (const routeCase of ROUTE_CASES) {
    await test.step(`${routeCase.name}, to ${formatsNamed(routeCase)}`, async () => {
      wrongByCase[routeCase.name] = await walkCase(page, routeCase);
    });
  }
  expect(Object.fromEntries(Object.entries(wrongByCase).filter(([, wrong]) => wrong.length > 0))).toEqual({});
});

/** One case, from the default settings and no files: what comes out wrong, and the routes taken (annotated). */
async function walkCase(page: Page, routeCase: RouteCase): Promise<string[]> {
  const expected = await expectedOutputs(routeCase, ORIENTED_DIR);
  await page.getByRole('button', { name: 'Reset settings' }).click();
  if ((await page.getByTestId('file-card').count()) > 0) await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByTestId('file-card')).toHaveCount(0);
  await page.getByTestId('file-input').setInputFiles(routeCase.sources.map(({ name }) => join(ORIENTED_DIR, name)));
  await expect(page.getByText('Ready to convert')).toHaveCount(routeCase.sources.length);
  // Each card's preview is the picture upright too: landscape, as the picture is shown (thumbnail.worker.ts).
  await expect(page.getByTestId('selection-summary')).toHaveAttribute('data-previews', String(routeCase.sources.length));
  const previews = await page.getByTestId('file-card').evaluateAll((cards) =>
    Promise.all(
      cards.map(async (card) => {
        const image = card.querySelector('img')!;
        // Off screen, a lazy image is not loaded until asked for.
        image.loading = 'eager';
        await image.decode();
        return { name: card.querySelector('[title]')?.getAttribute('title'), width: image.naturalWidth, height: image.naturalHeight };
      }),
    ),
  );
  const wrong = previews.filter(({ width, height }) => width <= height).map(({ name }) => `preview of ${name} shown on its side`);
  await applySettings(page, routeCase);
  const routes: string[] = [];
  for (const format of routeCase.formats) {
    const output = FORMATS[format];
    await chooseFormat(page, output.label as 'JPG');
    await convertAll(page, routeCase.sources.length);
    await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(routeCase.sources.length);
    const taken = await page.getByTestId('job').evaluateAll((jobs) => jobs.map((job) => [job.querySelector('.job__name')?.getAttribute('title'), job.getAttribute('data-route')]));
    for (const [name, route] of taken) {
      // The plan's route, or the pixels where the browser could not take the bitmap or the rows (a WebP's EXIF
      // Chromium leaves to the page); a photo stored upright always takes the plan's.
      const planned = plannedRoute(name!, { ...DEFAULT_SETTINGS, ...routeCase.settings, outputFormat: format });
      if (route !== planned && (route !== 'pixels' || name === UPRIGHT_PHOTO)) wrong.push(`${output.label} ${name}: took ${route}, planned ${planned}`);
    }
    routes.push(`${output.label}: ${[...new Set(taken.map(([, route]) => route))].join(' ')}`);
    wrong.push(...(await wrongOutputs(await downloadAllZip(page), expected, { ...output, format })));
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await expect(page.getByTestId('job')).toHaveCount(0);
  }
  test.info().annotations.push({ type: `routes, ${routeCase.name}`, description: routes.join('; ') });
  return wrong;
}
