import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { isUprightOf, referenceRendering, shownThumbnail } from '../fixtures/oriented.ts';
import { sharpReadable } from '../independentDecoders.ts';
import { launchChromium, startAppServer, APP_URL } from './app-page.ts';

/**
 * The orientation table: photos stored every way up (by default the public `exif-orientation-examples`'
 * Landscape_1 … Landscape_8, one picture in all eight EXIF orientations), through the built app in Chromium to each
 * format with the default settings, with "Optimised compression" off and with Smart compression, each output shown as
 * a viewer shows it and compared with its source as sharp shows it (of the source's eight ways up, the upright one
 * must be the nearest). Prints a Markdown table: how many of each cell's
 * oriented photos came out turned or mirrored. HEICs in the folder are taken too, compared with libheif's rendering.
 *
 *   npm run build && npx tsx tests/bench/orientation-table.ts DIR [DIST]   (every .jpg and .heic in DIR; DIST: another
 *   build's dist folder, dist/ by default)
 */

const FORMATS = [
  { label: 'JPG', value: 'jpeg', extension: 'jpg', smart: true },
  { label: 'PNG', value: 'png', extension: 'png', smart: false },
  { label: 'WebP', value: 'webp', extension: 'webp', smart: true },
  { label: 'AVIF', value: 'avif', extension: 'avif', smart: true },
  { label: 'JPEG XL', value: 'jxl', extension: 'jxl', smart: true },
] as const;
const SETTINGS = ['default', 'Optimised compression off', 'Smart compression'] as const;

async function main(): Promise<void> {
  const dir = resolve(process.argv[2] ?? 'exif-orientation-examples');
  const photos = readdirSync(dir).filter((name) => /\.(jpg|heic)$/.test(name)).sort();
  if (photos.length === 0) throw new Error(`No .jpg or .heic in ${dir}`);
  // A HEIC as libheif's heif-convert shows it (irot and imir, never the EXIF Orientation beside them).
  const references = new Map(await Promise.all(photos.map(async (name) => [name, await shownThumbnail(await referenceRendering(join(dir, name)))] as const)));
  const oriented = await Promise.all(photos.map(async (name) => name.endsWith('.heic') || ((await sharp(join(dir, name)).metadata()).orientation ?? 1) !== 1));
  // Another build to measure, side by side with this one: its dist folder as the second argument.
  const server = await startAppServer(process.argv[3] ? resolve(process.argv[3]) : undefined);
  const browser = await launchChromium();
  const rows: string[] = [];
  try {
    for (const setting of SETTINGS) {
      const cells: string[] = [];
      for (const format of FORMATS) {
        if (setting === 'Smart compression' && !format.smart) {
          cells.push('–');
          continue;
        }
        const context = await browser.newContext({ acceptDownloads: true, serviceWorkers: 'block' });
        const page = await context.newPage();
        await page.goto(APP_URL);
        await page.locator('html[data-alive]').waitFor();
        await page.getByTestId('file-input').setInputFiles(photos.map((name) => join(dir, name)));
        await page.getByRole('radio', { name: format.label, exact: true }).check();
        if (setting === 'Optimised compression off') await page.getByRole('switch', { name: /Optimised compression/ }).uncheck();
        if (setting === 'Smart compression') await page.getByRole('switch', { name: /Smart compression/ }).check();
        await page.getByLabel('Email address').fill('ada@example.com');
        await page.getByRole('button', { name: `Convert ${photos.length} images` }).click();
        await page.locator('.action-bar__status', { hasText: /^Finished: / }).waitFor({ timeout: 0 });
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download All (.zip)' }).click()]);
        const entries = unzipSync(new Uint8Array(readFileSync(await download.path())));
        let wrong = 0;
        let of = 0;
        for (const [i, name] of photos.entries()) {
          if (!oriented[i]) continue;
          of++;
          const output = entries[name.replace(/\.(jpg|heic)$/, `.${format.extension}`)];
          if (!output || !isUprightOf(await shownThumbnail(sharpReadable(Buffer.from(output))), references.get(name)!).upright) wrong++;
        }
        cells.push(wrong === 0 ? 'upright' : `**${wrong} of ${of} turned**`);
        console.error(`${setting}, ${format.label}: ${wrong} of ${of} wrong`);
        await context.close();
      }
      rows.push(`| ${setting} | ${cells.join(' | ')} |`);
    }
  } finally {
    await browser.close();
    server.kill();
  }
  console.log(`| settings | ${FORMATS.map((format) => format.label).join(' | ')} |\n|---|${FORMATS.map(() => '---').join('|')}|\n${rows.join('\n')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
