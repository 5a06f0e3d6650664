/**
 * `npm run bench:encoders`: what each candidate "optimised" encoder setting costs and saves, for choosing the
 * default (issue 13). The WASM encoders the app ships (jSquash: mozjpeg, libwebp's SIMD build) run here in Node's V8,
 * the engine a Chromium worker runs them in; the reference is the native library the browser's own canvas encoder is
 * built on, through sharp (libjpeg-turbo at 4:2:0 without optimised Huffman tables; libwebp at method 3), at the
 * same quality. Each row: encode time and bytes as a ratio of the reference's, and mean SSIM (ssim.js, on the centre 1024 × 768).
 *
 *   npm run bench:encoders                 3 synthetic 12 MP photos
 *   npm run bench:encoders -- --photos DIR  photos made from DIR instead
 *   npm run bench:encoders -- --look        JPEG encoders at an equal look, on the corpus's photographs (below)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ssim } from 'ssim.js';
import { FORMATS } from '../../core/formats';
import { naturalPhotos, photoSet } from './inputs';
import { geometricMean, LookJudge, type EncodeAt } from './equal-look';
import { corpusPhotographs } from '../corpus/sources';
import { jpegliEncoder } from '../../wasm/jpegli/jpegli';
import { compilePackageWasm as wasm, decodeRgba as decode, type Rgba } from './node-codecs';

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
  const left = Math.floor((image.width - width) / 2);
  const top = Math.floor((image.height - height) / 2);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) data.set(image.data.subarray(((top + y) * image.width + left) * 4, ((top + y) * image.width + left + width) * 4), y * width * 4);
  return { data, width, height };
}

const raw = (image: Rgba) => sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: { width: image.width, height: image.height, channels: 4 } });

/** jSquash's mozjpeg, ready: encodes over the app's own options (wasm/jpeg/meta.ts), so comparisons are like with like. */
async function loadMozjpeg(): Promise<(image: Rgba, options: Record<string, number | boolean>) => Promise<Uint8Array>> {
  const jpeg = await import('@jsquash/jpeg/encode.js');
  await jpeg.init(await wasm('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'));
  return async (image, options) => new Uint8Array(await jpeg.default(image as ImageData, { ...FORMATS.jpeg.optimisedOptions, ...options }));
}

/**
 * `--look`: each JPEG encoder at the browser encoder's look. The reference is libjpeg-turbo at quality 80, 4:2:0,
 * standard Huffman tables (what a canvas exports); each candidate's quality is searched for its smallest file whose
 * butteraugli distance (Debian's butteraugli, max-norm) is no further from the source than the reference's, on the
 * centre 1024 × 768 of each of the corpus's photographs. Time: one encode of the whole photo at the median quality
 * found, against the native reference's, warmed up first.
 */
async function jpegAtEqualLook() {
  sharp.concurrency(1);
  const mozjpegAt = await loadMozjpeg();
  const jpegli = jpegliEncoder(await WebAssembly.compile(readFileSync(new URL('../../wasm/jpegli/jpegli.wasm', import.meta.url))));
  type Candidate = [string, (image: Rgba) => EncodeAt];
  const candidates: Candidate[] = [
    ['mozjpeg (the app: browser tables, 4:2:0, trellis, baseline)', (image) => (q) => mozjpegAt(image, { quality: q })],
    ['jpegli, 4:2:0, progressive', (image) => async (q) => new Uint8Array(await jpegli(image, { quality: q, subsampling: '420', progressiveLevel: 2 }))],
    ['jpegli, 4:2:0, sequential', (image) => async (q) => new Uint8Array(await jpegli(image, { quality: q, subsampling: '420', progressiveLevel: 0 }))],
    ['jpegli, 4:4:4, progressive', (image) => async (q) => new Uint8Array(await jpegli(image, { quality: q, subsampling: '444', progressiveLevel: 2 }))],
    ['libjpeg-turbo (sharp): optimised Huffman, progressive', (image) => async (q) => new Uint8Array(await raw(image).jpeg({ quality: q, chromaSubsampling: '4:2:0', optimiseCoding: true, progressive: true, mozjpeg: false }).toBuffer())],
  ];
  const browser = (image: Rgba, quality: number) => raw(image).jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: false, mozjpeg: false }).toBuffer();
  const found = new Map<string, { ratio: number; quality: number }[]>(candidates.map(([name]) => [name, []]));
  const photos = corpusPhotographs();
  const wholes: Rgba[] = [];
  for (const path of photos) {
    const whole = await decode(readFileSync(path));
    wholes.push(whole);
    const crop = centre(whole);
    const judge = new LookJudge(await raw(crop).removeAlpha().png().toBuffer());
    const reference = await browser(crop, QUALITY);
    const target = judge.distance(reference);
    const row = [`${path.split('/').pop()}: browser ${reference.length} B at ${target.toFixed(2)}`];
    for (const [name, at] of candidates) {
      const best = await judge.lowestAtLook(at(crop), target, 30, 100);
      if (best) found.get(name)!.push({ ratio: best.bytes.length / reference.length, quality: best.setting });
      row.push(best ? `${name.split(' (')[0]} q${best.setting} ×${(best.bytes.length / reference.length).toFixed(2)}` : `${name}: none`);
    }
    console.log(row.join(' | '));
    judge.dispose();
  }
  const lines = [
    `JPEG at the browser encoder's look (quality ${QUALITY}); butteraugli max-norm on the centre 1024 × 768 of ${photos.length} photographs (MATE's nature wallpapers).`,
    '',
    '| candidate | bytes ÷ browser (geometric mean) | range | quality found (median; range) | encode time ÷ native, whole photo |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [name, at] of candidates) {
    const results = found.get(name)!;
    const qualities = results.map((r) => r.quality).sort((a, b) => a - b);
    const median = qualities[Math.floor(qualities.length / 2)] ?? QUALITY;
    let ms = 0;
    let nativeMs = 0;
    for (const whole of wholes) {
      await at(whole)(median);
      await browser(whole, QUALITY);
      ms += (await timed((image) => at(image)(median), whole)).ms;
      nativeMs += (await timed(async (image) => new Uint8Array(await browser(image, QUALITY)), whole)).ms;
    }
    const ratios = results.map((r) => r.ratio);
    lines.push(`| ${name} | ${geometricMean(ratios).toFixed(3)} (${results.length} of ${photos.length} reached it) | ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} | ${median}; ${qualities[0]}–${qualities.at(-1)} | ${(ms / nativeMs).toFixed(2)} |`);
  }
  console.log(`\n${lines.join('\n')}`);
}

async function main() {
  // One thread for the native reference, as one WASM encoder runs in one worker.
  sharp.concurrency(1);
  const inputs = await photoSet(3, 4000, 3000, photosDir ? naturalPhotos(photosDir) : undefined);
  const bigImages = await Promise.all(inputs.paths.map(async (path) => decode(readFileSync(path))));

  const mozjpegAt = await loadMozjpeg();
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
        ['mozjpeg: trellis, progressive (the app before issue 13)', mozjpeg({ progressive: true })],
        ['mozjpeg: trellis, baseline (the app)', mozjpeg({ progressive: false })],
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
        ['libwebp WASM method 6 (the app before issue 13)', libwebp({ method: 6 })],
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
            candidates: [6, 7, 8, 9].map((speed): [string, Encode] => [`libavif WASM speed ${speed}${speed === 6 ? ' (the app before issue 13)' : speed === 8 ? ' (the app)' : ''}`, libavif({ speed })]),
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

await (argv.includes('--look') ? jpegAtEqualLook() : main());
