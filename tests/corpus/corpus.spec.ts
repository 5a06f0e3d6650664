import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { chooseFormat, convertButton, enterEmail, jobFigures, saveDownload } from '../e2e/helpers.ts';
import { expect, test } from '../e2e/shared-page.ts';
import { isUprightOf, shownThumbnail } from '../fixtures/oriented.ts';
import { magicFormat, sharpReadable } from '../independentDecoders.ts';
import { smartTarget } from '../../core/look.ts';
import { photoFrom } from '../bench/inputs.ts';
import { CORPUS_DIR, MANIFEST, type CorpusFile, type Manifest } from './manifest.ts';
import { extractedPackage } from './sources.ts';

/**
 * The conformance corpus (build.ts) through the app in Chromium, as a visitor would take it: a batch of files picked,
 * each card's verdict read, every valid one converted, the zip downloaded and every output decoded by sharp (a JPEG XL
 * by djxl first) at the size the source's own display size gives. Every file goes to WebP with the default settings at
 * its original size (the plain route every visitor takes: the decoded bitmap to the browser's encoder), each output
 * compared with the reference decoder's thumbnail of its source (build.ts): of the source's eight ways up, the upright
 * one must be the nearest, so a turned or mirrored picture fails whatever colour management did. Every file also goes
 * by the pixel route to one of the other four formats in turn (filesFor; all four with CORPUS=full): "Tiny 512 wide",
 * or turned right where it is no wider than that (Framing). A test reports every file that failed, not only the first.
 */

const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
// Under both lists' virtualisation thresholds (VIRTUAL_GRID_FROM, VIRTUAL_FROM): every card and job is in the page.
const BATCH = 30;
/** A batch long enough to pass the 16 looks the queue keeps for after the batch (LOOKS_KEPT_FOR_LATER), under VIRTUAL_FROM (40). */
const LONG_BATCH = 38;
const FORMATS = [
  { label: 'JPG', extension: 'jpg', decodesAs: 'jpeg', originalSize: false },
  { label: 'PNG', extension: 'png', decodesAs: 'png', originalSize: false },
  { label: 'WebP', extension: 'webp', decodesAs: 'webp', originalSize: true },
  { label: 'AVIF', extension: 'avif', decodesAs: 'heif', originalSize: false },
  // sharp's libvips has no JPEG XL: libjxl's djxl decodes it, to a PNG (sharpReadable).
  { label: 'JPEG XL', extension: 'jxl', decodesAs: 'png', originalSize: false },
] as const;

const TINY_WIDTH = 512;
/** The smallest side whose output is compared with its source's thumbnail (16 × 16, oriented.ts). */
const JUDGED_SIDE = 16;
const TOO_SMALL = 'File too small to be a valid image.';
const CORRUPT = 'Invalid file format. File may be corrupted or malicious.';

const stem = (name: string) => name.slice(0, name.lastIndexOf('.'));
const describe = (file: CorpusFile) => `${file.name} (${file.source})`;

/** Each card's text by file name: textContent, since cards off screen are not rendered. */
async function cardTexts(page: Page): Promise<Map<string, string>> {
  const cards = await page.getByTestId('file-card').evaluateAll((elements) => elements.map((card) => [card.querySelector('[title]')?.getAttribute('title') ?? '', card.textContent ?? '']));
  return new Map(cards as [string, string][]);
}

type JobState = { status: string; text: string };

/** A batch in which no job has changed for this long has stalled: the test ends and names the jobs left. */
const STALLED_MS = 4 * 60_000;

/**
 * Waits until every job has ended and gives each one's status and text by file name. A batch whose jobs have all
 * stood still for STALLED_MS fails at once, naming each unsettled job and what its card said, not at the test's limit.
 */
async function settledJobs(page: Page, count: number): Promise<Map<string, JobState>> {
  const read = async () =>
    new Map(
      (await page.getByTestId('job').evaluateAll((jobs) =>
        jobs.map((job) => [job.querySelector('.job__name')?.getAttribute('title') ?? '', { status: (job as HTMLElement).dataset.status ?? '', text: job.textContent ?? '' }]),
      )) as [string, JobState][],
    );
  const ended = (job: JobState) => job.status === 'completed' || job.status === 'error';
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') pageErrors.push(`${message.type()}: ${message.text()}`);
  });
  let last = '';
  let changedAt = Date.now();
  for (;;) {
    const jobs = await read();
    if (jobs.size === count && [...jobs.values()].every(ended)) return jobs;
    const now = JSON.stringify([...jobs]);
    if (now !== last) [last, changedAt] = [now, Date.now()];
    if (Date.now() - changedAt > STALLED_MS) {
      const left = [...jobs].filter(([, job]) => !ended(job)).map(([name, job]) => `${name}: ${job.status}: "${job.text}"`);
      const bar = await page.locator('.action-bar__status').textContent().catch(() => null);
      // A worker that answers is waiting for something (a stuck job); one that does not is busy computing.
      const workers = await Promise.all(
        page.workers().map(async (worker) => {
          const answered = await Promise.race([worker.evaluate(() => 'answers').catch((error: unknown) => `fails: ${String(error)}`), new Promise((resolve) => setTimeout(() => resolve('does not answer in 5 s'), 5_000))]);
          return `${worker.url().split('/').pop()}: ${answered}`;
        }),
      );
      throw new Error(`No job changed for ${STALLED_MS / 60_000} min; ${jobs.size} of ${count} listed, ${left.length} not ended (the bar: "${bar}"):\n${left.join('\n')}\nthe page's workers: ${workers.join('; ') || 'none'}\nthe page's errors and warnings: ${pageErrors.join('\n') || 'none'}`);
    }
    await page.waitForTimeout(500);
  }
}

/**
 * Which files go to a format. Every file goes to WebP at its original size (its decoder, then the bitmap route) and,
 * resized or turned (Framing), to one of the other four in turn (its decoder again, then the pixel route): each file is decoded on both
 * routes, and each of the four encoders gets a quarter of the files, from every source. The full corpus takes every
 * file to every format.
 */
const RESIZED = FORMATS.filter((format) => !format.originalSize);
function filesFor(format: (typeof FORMATS)[number]): CorpusFile[] {
  if (manifest.mode === 'full' || format.originalSize) return manifest.files;
  return manifest.files.filter((_, index) => RESIZED[index % RESIZED.length] === format);
}

test.setTimeout(15 * 60_000);

/**
 * How a batch frames its files: WebP at the original size (the bitmap route); the other formats by the pixel route,
 * "Tiny 512 wide" for a picture wider than that, and turned right at its own size for the rest. Upscaled to 512 px, a
 * 32 px icon gave the encoders 256 times its pixels: the small files were half the corpus's pixel-route files and
 * three fifths of the pixels those encoded (about 5.7 of 9.3 MP a format), with nothing to show that a large picture
 * made smaller does not. Turned, each small file still takes the pixel route whole, from its own decoder.
 */
type Framing = 'original' | 'tiny' | 'turned';
const FRAMING_NAMES: Record<Framing, string> = { original: 'the default settings, original size', tiny: 'Tiny 512 wide', turned: 'turned right at its own size' };

/** A format's files (filesFor) by how they are framed, and how a test's title says which they are. */
function framedGroups(format: (typeof FORMATS)[number]): { framing: Framing; files: CorpusFile[]; which: string }[] {
  const files = filesFor(format);
  const whole = files.length === manifest.files.length ? `${files.length}` : `its ${files.length} (a quarter of ${manifest.files.length})`;
  if (format.originalSize) return [{ framing: 'original', files, which: whole }];
  // A file whose size the corpus does not know (a damaged one) takes the preset, as any file would.
  const small = files.filter((file) => file.width !== undefined && file.width <= TINY_WIDTH);
  const wide = files.filter((file) => !small.includes(file));
  return [
    { framing: 'tiny' as const, files: wide, which: `the ${wide.length} wider than ${TINY_WIDTH} px of ${whole}` },
    { framing: 'turned' as const, files: small, which: `the ${small.length} up to ${TINY_WIDTH} px wide of ${whole}` },
  ].filter((group) => group.files.length > 0);
}

/** The formats by how long a file takes to them here (libjxl's and libavif's encoders the longest), longest first. */
const SLOWEST_FIRST = ['JPEG XL', 'AVIF', 'PNG', 'WebP', 'JPG'];

/**
 * A batch of files to each format (filesFor). Declared after the single tests below, and the slowest formats first, so
 * that the longest tests start first and the two workers end together (Playwright runs a file's tests in the order
 * they are declared).
 */
function formatBatchTests(): void {
  for (const format of [...FORMATS].sort((a, b) => SLOWEST_FIRST.indexOf(a.label) - SLOWEST_FIRST.indexOf(b.label))) {
    for (const { framing, files, which: group } of framedGroups(format)) {
      // Batches of at most BATCH, as even as can be (no batch of two files with a page of its own).
      const perBatch = Math.ceil(files.length / Math.ceil(files.length / BATCH));
      const batches: CorpusFile[][] = [];
      for (let i = 0; i < files.length; i += perBatch) batches.push(files.slice(i, i + perBatch));
      for (const [index, batch] of batches.entries()) {
        const range = `${index * perBatch + 1}–${index * perBatch + batch.length}`;
        test(`${manifest.mode} corpus, files ${range} of ${group} → ${format.label}, ${FRAMING_NAMES[framing]}`, async ({ page }) => {
          const problems: string[] = [];
          const differences: [string, number][] = [];
          await page.getByTestId('file-input').setInputFiles(batch.map((file) => join(CORPUS_DIR, file.path)));
          await expect(page.getByTestId('file-card')).toHaveCount(batch.length);

          const cards = await cardTexts(page);
          const accepted = batch.filter((file) => {
            const card = cards.get(file.name);
            if (card === undefined) return problems.push(`${describe(file)}: no card`), false;
            if (file.expect === 'too small') {
              if (!card.includes(TOO_SMALL)) problems.push(`${describe(file)}: under 100 bytes, yet its card reads "${card}"`);
              return false;
            }
            if (card.includes('Ready to convert')) return true;
            if (file.expect === 'damaged' && card.includes(CORRUPT)) return false;
            problems.push(`${describe(file)}: refused at intake: "${card}"`);
            return false;
          });

          if (accepted.length > 0) {
            await chooseFormat(page, format.label);
            if (framing === 'tiny') await page.getByRole('button', { name: 'Tiny 512 wide' }).click();
            if (framing === 'turned') await page.getByRole('button', { name: /Rotate right/ }).click();
            await enterEmail(page);
            await convertButton(page).click();
            const jobs = await settledJobs(page, accepted.length);
            const completed = accepted.filter((file) => {
              const job = jobs.get(file.name);
              if (job?.status === 'completed') return true;
              // A damaged file may end in an error, as long as it says what went wrong.
              if (file.expect === 'damaged' && job?.status === 'error' && job.text.trim().length > 0) return false;
              problems.push(`${describe(file)}: the job ended ${job ? `${job.status}: "${job.text}"` : 'missing'}`);
              return false;
            });

            if (completed.length > 0) {
              const downloading = page.waitForEvent('download');
              await page.getByRole('button', { name: 'Download All (.zip)' }).click();
              const entries = unzipSync(new Uint8Array(await saveDownload(await downloading)));
              for (const file of completed) {
                const name = `${stem(file.name)}.${format.extension}`;
                const bytes = entries[name];
                if (!bytes) {
                  problems.push(`${describe(file)}: no ${name} in the zip (it holds ${Object.keys(entries).length} files)`);
                  continue;
                }
                try {
                  const readable = sharpReadable(Buffer.from(bytes));
                  const { info } = await sharp(readable).raw().toBuffer({ resolveWithObject: true });
                  const metadata = await sharp(readable).metadata();
                  if (metadata.format !== format.decodesAs) problems.push(`${describe(file)}: ${name} decodes as ${metadata.format}`);
                  if (format.extension === 'jxl' && magicFormat(Buffer.from(bytes)) !== 'jxl') problems.push(`${describe(file)}: ${name} is not a JPEG XL`);
                  if (file.width && file.height && framing === 'tiny') {
                    const height = Math.max(1, Math.round((TINY_WIDTH * file.height) / file.width));
                    if (info.width !== TINY_WIDTH || Math.abs(info.height - height) > 1) {
                      problems.push(`${describe(file)}: ${name} is ${info.width} × ${info.height}; its ${file.width} × ${file.height} source gives ${TINY_WIDTH} × ${height}`);
                    }
                  }
                  if (file.width && file.height && framing === 'turned') {
                    if (info.width !== file.height || info.height !== file.width) problems.push(`${describe(file)}: ${name} is ${info.width} × ${info.height}; its ${file.width} × ${file.height} source turned right is ${file.height} × ${file.width}`);
                  }
                  if (file.width && file.height && framing === 'original') {
                    if (info.width !== file.width || info.height !== file.height) problems.push(`${describe(file)}: ${name} is ${info.width} × ${info.height}, not its source's ${file.width} × ${file.height}`);
                  }
                  // A picture smaller than the thumbnail says nothing of which way up it is once squeezed lossily (a 3 × 3
                  // WebP's chroma is shared by its 2 × 2 blocks).
                  if (file.width && file.height && framing === 'original' && Math.min(file.width, file.height) >= JUDGED_SIDE) {
                    const { upright, difference, nearest } = isUprightOf(await shownThumbnail(readable), Buffer.from(file.thumbnail!, 'base64'));
                    differences.push([file.name, difference]);
                    if (!upright) problems.push(`${describe(file)}: ${name} looks like its source shown with orientation ${nearest}, not upright (${difference.toFixed(1)} from it upright)`);
                  }
                } catch (error) {
                  problems.push(`${describe(file)}: ${name} does not decode: ${String(error)}`);
                }
              }
            }
          }
          if (differences.length > 0) {
            const [worst, most] = differences.reduce((a, b) => (b[1] > a[1] ? b : a));
            test.info().annotations.push({ type: 'look', description: `the furthest from its source's look: ${worst}, ${most.toFixed(1)}` });
          }
          expect(problems, problems.join('\n')).toEqual([]);
        });
      }
    }
  }
}

/**
 * Smart compression on the corpus's real photographs, the default format, whole size: every job shows its score, at
 * or above the target its compression level stands for. The photographs: ukui's wallpapers (9 MP, as Photoshop saved
 * them) and variants of its mouse photograph (turned by EXIF, progressive, with ICC and a thumbnail).
 */
test(`${manifest.mode} corpus, real photographs, Smart compression → every score at or above the target`, async ({ page }) => {
  const photos = manifest.files
    .filter((file) => file.expect === 'converts' && file.name.endsWith('.jpg') && /^(ukui-wallpapers:|variant of ukui-wallpapers' the-mouse\.jpg: (exiftool -Orientation#=[16]|ImageMagick|exiftool: an ICC))/.test(file.source))
    .slice(0, 6);
  expect(photos.length, 'real photographs in the corpus').toBeGreaterThanOrEqual(4);
  await page.getByTestId('file-input').setInputFiles(photos.map((file) => join(CORPUS_DIR, file.path)));
  await page.getByRole('switch', { name: /Smart compression/ }).check();
  const target = smartTarget(Number(await page.getByLabel('Compression level', { exact: true }).inputValue()));
  await enterEmail(page);
  await convertButton(page).click();
  const jobs = await settledJobs(page, photos.length);
  const looks = await jobFigures(page);
  const problems = photos.flatMap((file) => {
    const job = jobs.get(file.name);
    if (job?.status !== 'completed') return [`${describe(file)}: the job ended ${job ? `${job.status}: "${job.text}"` : 'missing'}`];
    const score = looks.get(file.name)?.score ?? null;
    if (score === null) return [`${describe(file)}: no score shown`];
    return score >= target ? [] : [`${describe(file)}: scores ${score}, under the target ${target}`];
  });
  expect(problems, problems.join('\n')).toEqual([]);
});

/**
 * Go's copy of PngSuite (its first 20) and PngSuite's size images (1 × 1 to 9 × 9, variants.ts) in one batch to WebP, then each alone:
 * the same outcome for each file. A long batch once failed the 1–7 px files that converted alone: past 16 jobs a job's
 * look was judged as it converted, and the metric threw under 8 × 8.
 */
test(`${manifest.mode} corpus, PngSuite and its size images: each file ends the same in one batch as alone (→ WebP)`, async ({ page }) => {
  const files = manifest.files.filter((file) => file.expect === 'converts' && /pngsuite|PngSuite's size images/i.test(file.source));
  const sizes = files.filter((file) => /PngSuite's size images/.test(file.source));
  expect(sizes.length, "PngSuite's size images in the corpus").toBe(18);
  // The tiny ones last, after more than 16 others (where the failures were), in a batch whose jobs are all in the page
  // (under the queue's virtualisation threshold).
  const ordered = [...files.filter((file) => !sizes.includes(file)).slice(0, LONG_BATCH - sizes.length), ...sizes];
  expect(ordered.length - sizes.length, 'files before the tiny ones').toBeGreaterThan(16);
  const outcome = (job: JobState | undefined) => (job ? `${job.status}${job.status === 'error' ? `: ${job.text}` : ''}` : 'missing');

  await page.getByTestId('file-input').setInputFiles(ordered.map((file) => join(CORPUS_DIR, file.path)));
  await expect(page.getByText('Ready to convert')).toHaveCount(ordered.length);
  await enterEmail(page);
  await convertButton(page).click();
  const inBatch = await settledJobs(page, ordered.length);

  const different: string[] = [];
  for (const file of ordered) {
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await expect(page.getByTestId('job')).toHaveCount(0);
    await page.getByTestId('file-input').setInputFiles([join(CORPUS_DIR, file.path)]);
    await expect(convertButton(page)).toHaveText('Convert 1 image');
    await convertButton(page).click();
    const alone = (await settledJobs(page, 1)).get(file.name);
    const [batched, single] = [outcome(inBatch.get(file.name)), outcome(alone)];
    if (batched !== single) different.push(`${describe(file)}: in the batch ${batched}, alone ${single}`);
    else if (batched !== 'completed') different.push(`${describe(file)}: ${batched} in the batch and alone`);
  }
  expect(different, different.join('\n')).toEqual([]);
});

/** A WebP's image chunk: 'VP8 ' (lossy) or 'VP8L' (lossless), after a VP8X header and metadata chunks if any. */
function webpImageChunk(bytes: Uint8Array): string {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 12; at + 8 <= view.length; at += 8 + view.readUInt32LE(at + 4) + (view.readUInt32LE(at + 4) % 2)) {
    const id = view.toString('latin1', at, at + 4);
    if (id === 'VP8 ' || id === 'VP8L') return id;
  }
  return 'none';
}

/**
 * Smart compression on large, fine-grained photographs, the case that once backfired: a 6028 × 3391 wallpaper came out a 20.7 MB
 * lossless WebP where quality 80 gave 903 KB that already scored above the target. Here: MATE's 18 MP elephants
 * photograph as it is, and a 20 MP copy of its Garden photograph made larger, with grain, as the bench makes its large
 * photographs (tests/bench/inputs.ts photoFrom). Each goes to WebP at quality 80 and with Smart compression at the
 * default level, in the same page. Smart's output is lossy, and where quality 80 reached the target, Smart's quality
 * is at most 80 and its bytes at most 1.1× quality 80's.
 */
test(`${manifest.mode} corpus, large grainy photographs, Smart compression → never above quality 80 where quality 80 reaches the target, never lossless`, async ({ page }, testInfo) => {
  const mate = join(extractedPackage('mate-backgrounds'), 'usr', 'share', 'backgrounds', 'mate');
  const grainy = testInfo.outputPath('garden-grainy-6028x3391.jpg');
  writeFileSync(grainy, await photoFrom(join(mate, 'nature', 'Garden.jpg'), 6028, 3391, 66));
  const photos = [join(mate, 'abstract', 'Elephants_5640x3172.jpg'), grainy];

  await page.getByTestId('file-input').setInputFiles(photos);
  await chooseFormat(page, 'WebP');
  await enterEmail(page);
  const smartSwitch = page.getByRole('switch', { name: /Smart compression/ });
  // The level's slider shows with Smart compression on: its default, read, then off for quality 80 first.
  await smartSwitch.check();
  const target = smartTarget(Number(await page.getByLabel('Compression level', { exact: true }).inputValue()));
  await smartSwitch.uncheck();
  /** Converts every photo with the settings shown and gives each output's bytes and look, by output name. */
  const convertAndRead = async () => {
    await convertButton(page).click();
    const jobs = await settledJobs(page, photos.length);
    for (const [name, job] of jobs) expect(job.status, `${name}: ${job.text}`).toBe('completed');
    // At a fixed quality the looks are judged after the batch.
    await expect(page.getByTestId('look-pending')).toHaveCount(0);
    const looks = await jobFigures(page);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download All (.zip)' }).click();
    const entries = unzipSync(new Uint8Array(await saveDownload(await downloading)));
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await expect(page.getByTestId('job')).toHaveCount(0);
    return new Map([...looks].map(([name, look]) => [name, { ...look, bytes: entries[`${stem(name)}.webp`]! }]));
  };
  const atQuality80 = await convertAndRead();
  await smartSwitch.check();
  const smart = await convertAndRead();

  const problems: string[] = [];
  for (const path of photos) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const plain = atQuality80.get(name)!, chosen = smart.get(name)!;
    const figures = `Smart quality ${chosen.smartQuality}, ${chosen.bytes.length} bytes, score ${chosen.score}; quality 80: ${plain.bytes.length} bytes, score ${plain.score}`;
    test.info().annotations.push({ type: 'smart', description: `${name}: ${figures}` });
    if (webpImageChunk(chosen.bytes) !== 'VP8 ') problems.push(`${name}: Smart wrote a WebP whose image is ${webpImageChunk(chosen.bytes)}, not lossy VP8 (${figures})`);
    if (plain.score === null || chosen.score === null || chosen.smartQuality === null) {
      problems.push(`${name}: a score or Smart's quality is not shown (${figures})`);
      continue;
    }
    if (plain.score >= target) {
      if (chosen.smartQuality > 80) problems.push(`${name}: quality 80 reached the target ${target}, yet Smart chose a higher quality (${figures})`);
      if (chosen.bytes.length > 1.1 * plain.bytes.length) problems.push(`${name}: Smart's output is more than 1.1× quality 80's (${figures})`);
    }
    if (chosen.score < target && chosen.smartQuality < 100) problems.push(`${name}: Smart's output scores under the target ${target} (${figures})`);
  }
  expect(problems, problems.join('\n')).toEqual([]);
});

formatBatchTests();
