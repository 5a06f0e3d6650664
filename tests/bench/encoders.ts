/**
 * `npm run bench:encoders`: what each candidate "optimised" encoder setting costs and saves, for choosing the
 * default. The WASM encoders the app ships (jpegli; jSquash: libwebp's SIMD build, libavif) run here in Node's V8,
 * the engine a Chromium worker runs them in; the reference is the native library the browser's own canvas encoder is
 * built on, through sharp (libjpeg-turbo at 4:2:0 without optimised Huffman tables; libwebp at method 3), at the
 * same quality. Each row: encode time and bytes as a ratio of the reference's, and mean SSIM (ssim.js, on the centre 1024 × 768).
 *
 *   npm run bench:encoders                 3 synthetic 12 MP photos
 *   npm run bench:encoders -- --photos DIR  photos made from DIR instead
 *   npm run bench:encoders -- --look        JPEG encoders at an equal look, on the corpus's photographs (below)
 *   npm run bench:encoders -- --look webp   WebP encoder settings at an equal look, likewise
 *   npm run bench:encoders -- --look jxl    JPEG XL efforts at the browser JPEG's look, likewise
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ssim } from 'ssim.js';
import { FORMATS } from '../../core/formats.ts';
import { jpegliOptions, jpegliQuality } from '../../wasm/jpeg/options.ts';
import { corpusPhotographs, naturalPhotos, photoSet } from './inputs.ts';
import { geometricMean, LookJudge, looksAtLeastAsGood, type Look, type LookMetric } from './equal-look.ts';
import { crop } from '../../workers/pipeline/pixels.ts';
import { compilePackageWasm as wasm, decodeRgba as decode, loadJpegli, loadLibjxl, type Rgba } from './node-codecs.ts';

const argv = process.argv.slice(2);
const photosDir = argv.includes('--photos') ? argv[argv.indexOf('--photos') + 1] : undefined;
const QUALITY = 80;

type Encode = (image: Rgba) => Promise<Uint8Array>;

async function timed(encode: Encode, image: Rgba): Promise<{ ms: number; bytes: Uint8Array }> {
  const start = performance.now();
  const bytes = await encode(image);
  return { ms: performance.now() - start, bytes };
}

/** The centre 1024 × 768 (as the bench's SSIM): the whole 12 MP image takes ssim.js seconds for each score. */
function centre(image: Rgba): Rgba {
  const width = Math.min(1024, image.width);
  const height = Math.min(768, image.height);
  return crop(image, { x: Math.floor((image.width - width) / 2), y: Math.floor((image.height - height) / 2), width, height });
}

const raw = (image: Rgba) => sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: { width: image.width, height: image.height, channels: 4 } });

/** mozjpeg as the app ran it before jpegli: the browser encoder's tables, 4:2:0, trellis, baseline. */
const MOZJPEG_OPTIONS = { quant_table: 0, auto_subsample: false, chroma_subsample: 2, progressive: false };

/** jSquash's mozjpeg, ready: encodes over the options the app ran it with, so comparisons are like with like. */
async function loadMozjpeg(): Promise<(image: Rgba, options: Record<string, number | boolean>) => Promise<Uint8Array>> {
  const jpeg = await import('@jsquash/jpeg/encode.js');
  await jpeg.init(await wasm('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'));
  return async (image, options) => new Uint8Array(await jpeg.default(image as ImageData, { ...MOZJPEG_OPTIONS, ...options }));
}

/**
 * The source for `--look`: 1024 × 768 from the middle of the photo, starting 3 and 5 pixels off the 8-pixel grid. A
 * crop on the grid of the photo's own JPEG blocks let libjpeg re-encode it at the photo's own quality almost without
 * loss, which flattered the browser's encoder at 80 by 4 to 6 SSIMULACRA2 points; a converted photo is seldom so aligned.
 */
function offGrid(image: Rgba): Rgba {
  const width = Math.min(1024, image.width - 8);
  const height = Math.min(768, image.height - 8);
  return crop(image, { x: Math.floor((image.width - width) / 16) * 8 + 3, y: Math.floor((image.height - height) / 16) * 8 + 5, width, height });
}

/**
 * Each encoder's time over the whole photos, ÷ the native reference's (`browser` at QUALITY), each warmed up on the
 * photo first, one thread each.
 */
async function timesAgainstNative(
  wholes: readonly Rgba[],
  browser: (image: Rgba, quality: number) => Promise<Uint8Array>,
  encoders: readonly (readonly [string, (image: Rgba) => Promise<Uint8Array>])[],
): Promise<{ nativeMs: number; ratios: Map<string, { ratio: number; ms: number }> }> {
  const totalMs = async (encode: (image: Rgba) => Promise<Uint8Array>) => {
    let ms = 0;
    for (const whole of wholes) {
      await encode(whole);
      ms += (await timed(encode, whole)).ms;
    }
    return ms;
  };
  const nativeMs = await totalMs((image) => browser(image, QUALITY));
  const ratios = new Map<string, { ratio: number; ms: number }>();
  for (const [name, encode] of encoders) {
    const ms = await totalMs(encode);
    ratios.set(name, { ratio: ms / nativeMs, ms });
  }
  return { nativeMs, ratios };
}

/** The slider's settings (10 to 100 in steps of 5), or those --qualities lists. */
const sliderSettings = () =>
  argv.includes('--qualities') ? argv[argv.indexOf('--qualities') + 1]!.split(',').map(Number) : Array.from({ length: 19 }, (_, i) => 10 + i * 5);

/** The metric --metric names, SSIMULACRA2 by default. */
const lookMetric = (): LookMetric => (argv.includes('--metric') ? (argv[argv.indexOf('--metric') + 1] as LookMetric) : 'ssimulacra2');

/**
 * For each of the corpus's photographs (two at a time: the metric runs as a process of its own, so one photo's scoring
 * overlaps the other's encodes) and each slider setting: the off-grid crop, its judge, the browser encoder's output at
 * the setting and how it looks, handed to `measure`, which adds to the row printed for the photo. Gives the whole
 * photos, for timing.
 */
async function atEachSetting(
  settings: readonly number[],
  browser: (image: Rgba, quality: number) => Promise<Uint8Array>,
  measure: (at: { crop: Rgba; judge: LookJudge; setting: number; reference: Uint8Array; target: Look }) => Promise<string>,
): Promise<Rgba[]> {
  const photos = corpusPhotographs();
  const wholes: Rgba[] = [];
  const measurePhoto = async (path: string) => {
    const whole = await decode(readFileSync(path));
    wholes.push(whole);
    const crop = offGrid(whole);
    const judge = new LookJudge(await raw(crop).removeAlpha().png().toBuffer(), lookMetric());
    const row = [path.split('/').pop()];
    for (const setting of settings) {
      const reference = await browser(crop, setting);
      row.push(await measure({ crop, judge, setting, reference, target: await judge.look(reference) }));
    }
    console.log(row.join(' | '));
    judge.dispose();
  };
  for (let i = 0; i < photos.length; i += 2) await Promise.all(photos.slice(i, i + 2).map(measurePhoto));
  return wholes;
}

/**
 * `--look [--metric butteraugli] [--qualities 50,80]`: the app's JPEG encoders against the browser's at each of the
 * slider's settings, on the corpus's photographs (MATE's nature wallpapers), by a perceptual metric (equal-look.ts;
 * SSIMULACRA2 unless --metric says otherwise). The browser's encoder is libjpeg-turbo at the setting, 4:2:0, standard
 * Huffman tables (what a canvas exports). For each setting and photo: the lowest jpegli quality that looks at least
 * as good (bisection), which is what the app's quality map (wasm/jpeg/meta.ts) is drawn from; what the app's map
 * gives; and what mozjpeg at the same number gave (the app before). Then encode times of the whole photos at 80.
 */
async function jpegAtEqualLook() {
  sharp.concurrency(1);
  const metric = lookMetric();
  const mozjpegAt = await loadMozjpeg();
  const jpegli = await loadJpegli();
  const jpegliAt = (image: Rgba, quality: number) => jpegli(image, { ...FORMATS.jpeg.optimisedOptions, quality }).then((bytes) => new Uint8Array(bytes));
  const browser = async (image: Rgba, quality: number) =>
    new Uint8Array(await raw(image).jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false }).toBuffer());
  interface Found {
    browserBytes: number;
    browserLook: number;
    needed: number | null;
    neededBytes: number | null;
    app: { bytes: number; look: Look };
    mozjpeg: { bytes: number; look: Look };
  }
  const settings = sliderSettings();
  const found = new Map<number, Found[]>(settings.map((setting) => [setting, []]));
  const wholes = await atEachSetting(settings, browser, async ({ crop, judge, setting, reference, target }) => {
    const best = await judge.lowestAtLook((q) => jpegliAt(crop, q), target, Math.max(1, setting - 40), Math.min(100, setting + 20));
    const app = await jpegliAt(crop, jpegliQuality(setting / 100));
    const mozjpeg = await mozjpegAt(crop, { quality: setting });
    found.get(setting)!.push({
      browserBytes: reference.length,
      browserLook: target.value,
      needed: best?.setting ?? null,
      neededBytes: best?.bytes.length ?? null,
      app: { bytes: app.length, look: await judge.look(app) },
      mozjpeg: { bytes: mozjpeg.length, look: await judge.look(mozjpeg) },
    });
    return `${setting}→${best?.setting ?? '–'}`;
  });
  const ratio = (values: number[]) => geometricMean(values).toFixed(2);
  const atLeastAsGood = (results: Found[], pick: (r: Found) => Look) =>
    results.filter((r) => looksAtLeastAsGood(pick(r), { metric, value: r.browserLook })).length;
  const lines = [
    `JPEG against the browser's encoder, ${metric} on 1024 × 768 off-grid crops of ${wholes.length} photographs (MATE's nature wallpapers).`,
    `"Needed": the lowest jpegli quality (4:2:0, progressive) that looks at least as good, per photo: the most any photo needed, and the median.`,
    '',
    '| slider | browser look (mean) | jpegli needed: most; median | bytes ÷ browser at the photo\'s own need | the app (jpegli at its map): quality; bytes ÷ browser; photos as good | mozjpeg at the slider (the app before): bytes ÷ browser; photos as good |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const setting of settings) {
    const results = found.get(setting)!;
    const needs = results.flatMap((r) => (r.needed === null ? [] : [r.needed])).sort((a, b) => a - b);
    const own = results.flatMap((r) => (r.neededBytes === null ? [] : [r.neededBytes / r.browserBytes]));
    lines.push(
      `| ${setting} | ${(results.reduce((sum, r) => sum + r.browserLook, 0) / results.length).toFixed(1)} | ${needs.length < results.length ? 'none for some' : needs.at(-1)}; ${needs[Math.floor(needs.length / 2)]} | ${ratio(own)} | ${jpegliQuality(setting / 100)}; ${ratio(results.map((r) => r.app.bytes / r.browserBytes))}; ${atLeastAsGood(results, (r) => r.app.look)} of ${results.length} | ${ratio(results.map((r) => r.mozjpeg.bytes / r.browserBytes))}; ${atLeastAsGood(results, (r) => r.mozjpeg.look)} of ${results.length} |`,
    );
  }
  // Time: whole photos at 80, warmed up, against the native reference's, one thread each.
  const timings: [string, (image: Rgba) => Promise<Uint8Array>][] = [
    ['jpegli, the app (progressive)', (image) => jpegliAt(image, jpegliQuality(QUALITY / 100))],
    ['jpegli, sequential', async (image) => new Uint8Array(await jpegli(image, { ...jpegliOptions(QUALITY / 100), progressiveLevel: 0 }))],
    ['mozjpeg (the app before)', (image) => mozjpegAt(image, { quality: QUALITY })],
  ];
  lines.push('', `Encode time of the ${wholes.length} whole photos at ${QUALITY}, ÷ native libjpeg-turbo's (sharp):`, '');
  const { nativeMs, ratios } = await timesAgainstNative(wholes, browser, timings);
  for (const [name, { ratio, ms }] of ratios) {
    lines.push(`- ${name}: ${ratio.toFixed(2)}× (${(ms / wholes.length).toFixed(0)} ms a photo; native ${(nativeMs / wholes.length).toFixed(0)} ms)`);
  }
  console.log(`\n${lines.join('\n')}`);
}

type QualityEncoder = (image: Rgba, quality: number) => Promise<Uint8Array>;

/**
 * Each candidate at the browser's look: per photo and slider setting (--qualities, else 80), the candidate's lowest
 * quality in `qualityRange` that looks at least as good as `browser` at the setting, as bytes ÷ the browser's; then
 * each candidate's encode time of the whole photos at 80 against `browser`'s. Prints a row per photo as it goes, then
 * the table: `columns` names the candidate's column, the bytes' and the time's.
 */
async function candidatesAtEqualLook({ browser, candidates, qualityRange, title, columns }: {
  browser: QualityEncoder;
  candidates: readonly (readonly [string, QualityEncoder])[];
  qualityRange: (setting: number) => readonly [number, number];
  title: (photos: number) => string;
  columns: readonly [string, string, string];
}): Promise<void> {
  const settings = argv.includes('--qualities') ? sliderSettings() : [QUALITY];
  const found = new Map<string, { ratio: number; quality: number }[]>();
  const wholes = await atEachSetting(settings, browser, async ({ crop, judge, setting, reference, target }) => {
    const cells: string[] = [];
    for (const [name, encode] of candidates) {
      const best = await judge.lowestAtLook((q) => encode(crop, q), target, ...qualityRange(setting));
      const key = `${setting}|${name}`;
      if (!found.has(key)) found.set(key, []);
      if (best) found.get(key)!.push({ ratio: best.bytes.length / reference.length, quality: best.setting });
      cells.push(`${setting} ${name.split(' (')[0]}: ${best ? `q${best.setting} ×${(best.bytes.length / reference.length).toFixed(2)}` : 'none'}`);
    }
    return cells.join(' | ');
  });
  const [candidateColumn, bytesColumn, timeColumn] = columns;
  const lines = [title(wholes.length), '', `| slider | ${candidateColumn} | ${bytesColumn} | range | quality found (median; range) | ${timeColumn} |`, '| --- | --- | --- | --- | --- | --- |'];
  const { ratios: times } = await timesAgainstNative(
    wholes,
    browser,
    candidates.map(([name, encode]) => [name, (image: Rgba) => encode(image, QUALITY)] as const),
  );
  for (const setting of settings) {
    for (const [name] of candidates) {
      const results = found.get(`${setting}|${name}`) ?? [];
      const ratios = results.map((r) => r.ratio);
      const qualities = results.map((r) => r.quality).sort((a, b) => a - b);
      lines.push(`| ${setting} | ${name} | ${ratios.length ? geometricMean(ratios).toFixed(3) : '–'} (${results.length} of ${wholes.length} reached it) | ${ratios.length ? `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}` : '–'} | ${qualities[Math.floor(qualities.length / 2)] ?? '–'}; ${qualities[0] ?? '–'}–${qualities.at(-1) ?? '–'} | ${times.get(name)!.ratio.toFixed(2)} |`);
    }
  }
  console.log(`\n${lines.join('\n')}`);
}

/**
 * `--look webp [--qualities 60,90]`: libwebp (jSquash's SIMD build, the app's optimised WebP encoder) at the
 * browser's look: the browser's encoder is libwebp at method 3 (sharp, effort 3) at the slider's setting; each
 * candidate's quality is searched per photo for the smallest file that looks at least as good (SSIMULACRA2 unless
 * --metric says otherwise), on the same off-grid crops as JPEG. Then each candidate's encode time of the whole
 * photos at 80, warmed up, against the native reference's.
 */
async function webpAtEqualLook() {
  sharp.concurrency(1);
  const metric = lookMetric();
  const webp = await import('@jsquash/webp/encode.js');
  await webp.init(await wasm('@jsquash/webp/codec/enc/webp_enc_simd.wasm'));
  const libwebp = (options: Record<string, number | boolean>) => async (image: Rgba, quality: number) =>
    new Uint8Array(await webp.default(image as ImageData, { ...options, quality }));
  const candidates: [string, QualityEncoder][] = [
    ['method 5 (the app)', libwebp({ ...FORMATS.webp.optimisedOptions })],
    ['method 4', libwebp({ method: 4 })],
    ['method 4, sharp YUV', libwebp({ method: 4, use_sharp_yuv: 1 })],
    ['method 6', libwebp({ method: 6 })],
  ];
  const browser = async (image: Rgba, quality: number) => new Uint8Array(await raw(image).webp({ quality, effort: 3 }).toBuffer());
  await candidatesAtEqualLook({
    browser,
    candidates,
    qualityRange: (setting) => [Math.max(1, setting - 30), 100],
    title: (photos) => `WebP against the browser's encoder (libwebp method 3), ${metric} on 1024 × 768 off-grid crops of ${photos} photographs (MATE's nature wallpapers).`,
    columns: ['candidate', 'bytes ÷ browser at an equal look (geometric mean)', 'encode time ÷ native at 80, whole photos'],
  });
}

/**
 * `--look jxl [--qualities 60,90]`: libjxl (the app's single-threaded build, wasm/jxl/build.sh: what a phone, Firefox
 * and Safari run) at each effort, at the look of the browser's JPEG at the slider's setting (libjpeg-turbo, 4:2:0,
 * what a canvas exports): each effort's quality is searched per photo for the smallest file that looks at least as
 * good, on the same off-grid crops; then each effort's encode time of the whole photos at 80 against the native
 * JPEG's. Which effort the app's JPEG XL runs (core/formats/jxl.ts) and what JPEG XL saves over a JPG.
 */
async function jxlAtEqualLook() {
  sharp.concurrency(1);
  const metric = lookMetric();
  const encode = await loadLibjxl();
  const libjxl = (effort: number) => async (image: Rgba, quality: number) => encode(image, { effort, quality });
  const candidates: [string, QualityEncoder][] = [3, 4, 5, 7].map((effort) => [
    `effort ${effort}${effort === FORMATS.jxl.optimisedOptions.effort ? ' (the app)' : ''}`,
    libjxl(effort),
  ]);
  const browser = async (image: Rgba, quality: number) =>
    new Uint8Array(await raw(image).jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false }).toBuffer());
  await candidatesAtEqualLook({
    browser,
    candidates,
    qualityRange: () => [1, 99],
    title: (photos) => `JPEG XL against the browser's JPEG (libjpeg-turbo, 4:2:0), ${metric} on 1024 × 768 off-grid crops of ${photos} photographs (MATE's nature wallpapers).`,
    columns: ['libjxl', 'bytes ÷ browser JPEG at an equal look (geometric mean)', 'encode time ÷ native JPEG at 80, whole photos'],
  });
}

async function main() {
  // One thread for the native reference, as one WASM encoder runs in one worker.
  sharp.concurrency(1);
  const inputs = await photoSet(3, 4000, 3000, photosDir ? naturalPhotos(photosDir) : undefined);
  const bigImages = await Promise.all(inputs.paths.map(async (path) => decode(readFileSync(path))));

  const mozjpegAt = await loadMozjpeg();
  const jpegli = await loadJpegli();
  const webp = await import('@jsquash/webp/encode.js');
  await webp.init(await wasm('@jsquash/webp/codec/enc/webp_enc_simd.wasm'));

  // Over the app's own options (wasm/jpeg/meta.ts: its tables and chroma), so SSIM compares like with like.
  const mozjpeg = (options: Record<string, number | boolean>): Encode => (image) => mozjpegAt(image, { quality: QUALITY, ...options });
  const libwebp = (options: Record<string, number | boolean>): Encode => async (image) => new Uint8Array(await webp.default(image as ImageData, { quality: QUALITY, ...options }));

  const avif = await import('@jsquash/avif/encode.js');
  await avif.init(await wasm('@jsquash/avif/codec/enc/avif_enc.wasm'));
  const libavif = (options: Record<string, number | boolean>): Encode => async (image) => new Uint8Array(await avif.default(image as ImageData, { quality: QUALITY, ...options }));
  // avifenc takes a quantizer; jSquash maps quality q to round((100 − q) × 63 / 100), as the bench's AVIF scenario does.
  const quantizer = String(Math.round(((100 - QUALITY) * 63) / 100));
  const scratch = mkdtempSync(join(tmpdir(), 'encoders-'));
  const avifenc: Encode = async (image) => {
    const [input, output] = [join(scratch, 'in.png'), join(scratch, 'out.avif')];
    writeFileSync(input, await raw(image).png({ compressionLevel: 0 }).toBuffer());
    execFileSync('avifenc', ['-s', '6', '-j', '1', '--min', quantizer, '--max', quantizer, input, output], { stdio: 'ignore' });
    return new Uint8Array(readFileSync(output));
  };
  const smallInputs = await photoSet(3, 1600, 1200, photosDir ? naturalPhotos(photosDir) : undefined);
  const smallImages = await Promise.all(smallInputs.paths.map(async (path) => decode(readFileSync(path))));

  const families: { format: string; reference: Encode; candidates: [string, Encode][]; images?: Rgba[] }[] = [
    {
      format: 'JPEG',
      reference: async (image) => new Uint8Array(await raw(image).jpeg({ quality: QUALITY, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false }).toBuffer()),
      candidates: [
        ['jpegli: 4:2:0, progressive, at its quality map (the app)', async (image) => new Uint8Array(await jpegli(image, jpegliOptions(QUALITY / 100)))],
        ['mozjpeg: trellis, progressive (the app before 2026-11-22)', mozjpeg({ progressive: true })],
        ['mozjpeg: trellis, baseline (the app before jpegli)', mozjpeg({ progressive: false })],
        ['mozjpeg: no trellis, progressive', mozjpeg({ progressive: true, trellis_loops: 0 })],
        ['mozjpeg: trellis + opt zero + opt table, progressive', mozjpeg({ progressive: true, trellis_opt_zero: true, trellis_opt_table: true })],
        ['mozjpeg: trellis multipass, progressive', mozjpeg({ progressive: true, trellis_multipass: true })],
        ['libjpeg-turbo (sharp): optimised Huffman, progressive', async (image) => new Uint8Array(await raw(image).jpeg({ quality: QUALITY, chromaSubsampling: '4:2:0', optimiseCoding: true, progressive: true, mozjpeg: false }).toBuffer())],
      ],
    },
    {
      format: 'WebP',
      reference: async (image) => new Uint8Array(await raw(image).webp({ quality: QUALITY, effort: 3 }).toBuffer()),
      candidates: [
        ['libwebp WASM method 6 (the app before 2026-11-22)', libwebp({ method: 6 })],
        ['libwebp WASM method 5 (the app)', libwebp({ method: 5 })],
        ['libwebp WASM method 4', libwebp({ method: 4 })],
        ['libwebp WASM method 3', libwebp({ method: 3 })],
        ['libwebp WASM method 4, sns 80', libwebp({ method: 4, sns_strength: 80 })],
        ['libwebp WASM method 4, 2 passes', libwebp({ method: 4, pass: 2 })],
      ],
    },
    ...(existsSync('/usr/bin/avifenc')
      ? [
          {
            format: 'AVIF (2 MP; the reference is native avifenc at speed 6, one thread)',
            images: smallImages,
            reference: avifenc,
            candidates: [6, 7, 8, 9].map((speed): [string, Encode] => [`libavif WASM speed ${speed}${speed === 6 ? ' (the app before 2026-11-22)' : speed === 8 ? ' (the app)' : ''}`, libavif({ speed })]),
          },
        ]
      : []),
  ];

  const lines = [`Quality ${QUALITY}; ${inputs.name}; times and bytes as ratios of the native reference's (sums over the images).`, ''];
  for (const family of families) {
    const images = family.images ?? bigImages;
    const reference: { ms: number; bytes: Uint8Array }[] = [];
    for (const image of images) reference.push(await timed(family.reference, image));
    const refMs = reference.reduce((sum, r) => sum + r.ms, 0);
    const refBytes = reference.reduce((sum, r) => sum + r.bytes.length, 0);
    const meanSsim = async (outputs: Uint8Array[]) => {
      let total = 0;
      for (const [i, output] of outputs.entries()) total += ssim(centre(images[i]!) as ImageData, centre(await decode(output)) as ImageData).mssim;
      return total / outputs.length;
    };
    lines.push(`${family.format}: reference (native) ${(refMs / images.length).toFixed(0)} ms per image, SSIM ${(await meanSsim(reference.map((r) => r.bytes))).toFixed(4)}`);
    lines.push('', '| candidate | time ÷ reference | bytes ÷ reference | SSIM |', '| --- | --- | --- | --- |');
    for (const [name, encode] of family.candidates) {
      const results: { ms: number; bytes: Uint8Array }[] = [];
      for (const image of images) results.push(await timed(encode, image));
      const ms = results.reduce((sum, r) => sum + r.ms, 0);
      const bytes = results.reduce((sum, r) => sum + r.bytes.length, 0);
      const line = `| ${name} | ${(ms / refMs).toFixed(2)} | ${(bytes / refBytes).toFixed(3)} | ${(await meanSsim(results.map((r) => r.bytes))).toFixed(4)} |`;
      console.log(line);
      lines.push(line);
    }
    lines.push('');
  }
  rmSync(scratch, { recursive: true, force: true });
  console.log(`\n${lines.join('\n')}`);
}

const LOOKS: Record<string, () => Promise<void>> = { webp: webpAtEqualLook, jxl: jxlAtEqualLook };
await (argv.includes('--look') ? (LOOKS[argv[argv.indexOf('--look') + 1] ?? ''] ?? jpegAtEqualLook)() : main());
