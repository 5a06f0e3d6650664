import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversionSettings, ConvertRequest, ImageFormat } from '../../core/contract.ts';
import { detectFormat, sourceFormatInfo } from '../../core/formats.ts';
import { outputTooLargeMessage } from '../../core/messages.ts';
import { chromiumCanvas } from './support/canvas.ts';
import { planJob } from '../../core/plan.ts';
import { readImageHeader } from '../../src/conversion/probe.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { resizeLanczos3 } from '../../wasm/index.ts';
import { toImageData } from '../../core/raw-image.ts';
import { convertImage, judgeOutput, type ConversionOutcome } from '../../workers/pipeline/convert.ts';
import type { Resizer } from '../../workers/pipeline/transform.ts';
import { serveBuildAssets } from './support/serveBuildAssets.ts';
import { CAMERA, FIXTURES, makeExifFixtures, photo } from '../fixtures/make-fixtures.ts';
import { exifOf, magicFormat, sharpReadable } from '../independentDecoders.ts';

/**
 * The worker's pipeline on plain buffers, in Node: no createImageBitmap, OffscreenCanvas or ImageDecoder here, so
 * every file takes the WASM path (jSquash's decoders, encoders and Lanczos3, compiled from the same .wasm files the
 * build ships). The request is what the page sends: the file, the settings and the plan made from its header.
 */

const LIMIT = 100_000_000;
const lanczos3: Resizer = (image, width, height) => resizeLanczos3(toImageData(image), width, height);

/** A Blob that counts how its bytes are read: whole (arrayBuffer) or a part (slice, as a header reader does). */
class CountingBlob extends Blob {
  wholeReads = 0;
  partReads = 0;
  override arrayBuffer(): Promise<ArrayBuffer> {
    this.wholeReads++;
    return super.arrayBuffer();
  }
  override slice(start?: number, end?: number, type?: string): Blob {
    this.partReads++;
    return super.slice(start, end, type);
  }
}

/** The request the page makes for these bytes: its plan comes from the header, read here as intake reads it. */
async function requestFor(bytes: Buffer, settings: Partial<ConversionSettings>): Promise<ConvertRequest & { file: CountingBlob }> {
  const all: ConversionSettings = { ...DEFAULT_SETTINGS, ...settings };
  const format = detectFormat(bytes);
  if (!format) throw new Error('not an image of ours');
  const header = await readImageHeader(format, new Uint8Array(bytes));
  if (!header) throw new Error('no size in the header');
  const file = new CountingBlob([new Uint8Array(bytes)], { type: sourceFormatInfo(format).mimeType });
  return { file, settings: all, plan: planJob({ format, ...header }, all, chromiumCanvas), pixelLimit: LIMIT, decodeAlone: true, alone: true, keepAt: null, judgeLater: false };
}

const convert = (request: ConvertRequest): Promise<ConversionOutcome> => convertImage(request, lanczos3, () => {});

/** A 64 × 48 picture, left half red, right half blue, so which way up it ended is visible. */
const halves = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#ff0000' } }).composite([
    { input: { create: { width: 32, height: 48, channels: 3, background: '#0000ff' } }, left: 32, top: 0 },
  ]);

beforeAll(() => serveBuildAssets());

describe('convertImage on plain buffers (the WASM path)', () => {
  it('turns a JPEG with EXIF orientation 6 upright, resizes it on the plan, and writes its EXIF back upright', async () => {
    const jpeg = await halves().jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const request = await requestFor(jpeg, { outputFormat: 'webp', resizeWidth: 24, stripMetadata: false });
    expect(request.plan.geometry).toMatchObject({ width: 24, height: 32 });

    const result = await convert(request);
    const output = sharp(Buffer.from(result.bytes));
    const { format, width, height, orientation } = await output.metadata();
    expect({ format, width, height }).toEqual({ format: 'webp', width: 24, height: 32 });
    expect(orientation).toBe(1);
    // Turned a quarter clockwise, the left (red) half is now on top.
    const { data } = await output.clone().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 24 + x) * 3, (y * 24 + x) * 3 + 3)];
    expect(pixel(12, 4)[0]).toBeGreaterThan(200);
    expect(pixel(12, 28)[2]).toBeGreaterThan(200);
  });

  it('flattens a transparent PNG onto the background colour for a JPEG', async () => {
    const png = await sharp({ create: { width: 20, height: 10, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const result = await convert(await requestFor(png, { outputFormat: 'jpeg', backgroundColor: '#00ff00' }));
    const { data, info } = await sharp(Buffer.from(result.bytes)).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ format: 'raw', width: 20, height: 10, channels: 3 });
    expect(data[0]).toBeLessThan(20);
    expect(data[1]).toBeGreaterThan(235);
  });

  it('hands the source back when a same-format conversion would be larger, unless it carries metadata to strip', async () => {
    // Saved at quality 10, re-encoded at the default quality: the conversion comes out larger.
    const rough = await halves().jpeg({ quality: 10 }).toBuffer();
    const kept = await convert(await requestFor(rough, { outputFormat: 'jpeg', keepOriginalIfLarger: true }));
    expect(kept.keptOriginal).not.toBeNull();
    expect(kept.keptOriginal!.convertedBytes).toBeGreaterThanOrEqual(rough.length);

    const withExif = await halves().jpeg({ quality: 10 }).withExif({ IFD0: { Copyright: 'someone' } }).toBuffer();
    const stripped = await convert(await requestFor(withExif, { outputFormat: 'jpeg', keepOriginalIfLarger: true, stripMetadata: true }));
    expect(stripped.keptOriginal).toBeNull();
  });

  it('refuses an output over the pixel limit before resampling', async () => {
    const jpeg = await halves().jpeg().toBuffer();
    const request = await requestFor(jpeg, { resizeWidth: 4000, resizeHeight: 3000, aspectRatio: 'custom' });
    await expect(convertImage({ ...request, pixelLimit: 10_000_000 }, lanczos3, () => {})).rejects.toThrow(outputTooLargeMessage(12_000_000, 10_000_000));
  });

  it('reads the file whole at most once and never reads a header: the plan carries it', async () => {
    for (const settings of [{ outputFormat: 'webp', stripMetadata: false }, { outputFormat: 'jpeg', keepOriginalIfLarger: true, stripMetadata: true }] as const) {
      const request = await requestFor(await halves().jpeg().withMetadata({ orientation: 3 }).toBuffer(), settings);
      await convert(request);
      expect(request.file.wholeReads).toBe(1);
      expect(request.file.partReads).toBe(0);
    }
  });

  it('judges a lossy output now, or hands back its source view to judge later with the same score', async () => {
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 95 }).toBuffer();
    const now = await convert(await requestFor(photo, { outputFormat: 'webp', quality: 60 }));
    expect(now.lookSource).toBeNull();
    expect(now.look?.score).toBeGreaterThan(0);

    const later = await convert({ ...(await requestFor(photo, { outputFormat: 'webp', quality: 60 })), judgeLater: true });
    expect(later.look).toBeNull();
    expect(later.lookSource?.view).toMatchObject({ width: 300, height: 200 });
    const judged = await judgeOutput({ output: new Blob([later.bytes], { type: 'image/webp' }), format: 'webp', source: later.lookSource! });
    expect(judged).toEqual({ score: now.look!.score, smartQuality: null });
  });

  it('hands back no view for a lossless output, a target size or Smart compression (judged as it converts, or not at all)', async () => {
    const photo = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 95 }).toBuffer();
    const later = async (settings: Partial<ConversionSettings>) => convert({ ...(await requestFor(photo, settings)), judgeLater: true });
    expect((await later({ outputFormat: 'png' })).lookSource).toBeNull();
    expect((await later({ outputFormat: 'webp', enableTargetSize: true, targetFileSize: 50 })).lookSource).toBeNull();
    const smart = await later({ outputFormat: 'webp', autoCompress: true });
    expect(smart.lookSource).toBeNull();
    expect(smart.look?.smartQuality).toBeGreaterThan(0);
  });

  it('converts an image under 8 × 8 pixels, which SSIMULACRA2 cannot score, whether judged now or later, and with Smart compression', async () => {
    // PngSuite's 1–7 px images failed in a long batch and converted alone: past the looks the queue keeps for later,
    // a job is judged as it converts, and judging a picture this small threw.
    for (const [width, height] of [[1, 1], [7, 7], [32, 4]] as const) {
      const tiny = await sharp({ create: { width, height, channels: 3, background: '#4080c0' } }).png().toBuffer();
      for (const outputFormat of ['jpeg', 'webp', 'avif', 'jxl'] as const) {
        for (const settings of [{ outputFormat }, { outputFormat, autoCompress: true }]) {
          for (const judgeLater of [false, true]) {
            const result = await convert({ ...(await requestFor(tiny, settings)), judgeLater });
            expect([result.width, result.height, result.look, result.lookSource], `${width} × ${height} → ${outputFormat} ${JSON.stringify(settings)}`).toEqual([width, height, null, null]);
          }
        }
      }
    }
    // The plan agrees: no Smart compression route, and no judging's memory, for an output too small to judge.
    const tiny = await sharp({ create: { width: 7, height: 7, channels: 3, background: '#4080c0' } }).png().toBuffer();
    expect((await requestFor(tiny, { outputFormat: 'webp', autoCompress: true })).plan.route).not.toBe('smart');
  });
});

describe('convertImage: metadata, the source kept, a target size, adjustments', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exif-sources-'));
    await makeExifFixtures(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // In the browser, tests/e2e/convert.spec.ts walks the switches for JPG; the rest of the grid needs no browser: what is
  // written or handed back is decided here, on whatever bytes the encoder made.
  it.each([
    ['JPG', 'jpeg'],
    ['PNG', 'png'],
    ['WebP', 'webp'],
    ['AVIF', 'avif'],
    ['JPEG XL', 'jxl'],
  ] as const satisfies readonly (readonly [string, ImageFormat])[])(
    '%s with EXIF to its own format: each "Strip metadata" × "Keep the original" combination, the camera kept only when asked, the source only when no smaller',
    async (_label, format) => {
      const source = readFileSync(join(dir, FIXTURES.withExif[format]));
      const { width, height } = await sharp(sharpReadable(source)).metadata();
      for (const [stripMetadata, keepOriginalIfLarger] of [[true, true], [true, false], [false, true], [false, false]] as const) {
        const combination = `strip ${stripMetadata ? 'on' : 'off'}, keep ${keepOriginalIfLarger ? 'on' : 'off'}`;
        const result = await convert(await requestFor(source, { outputFormat: format, stripMetadata, keepOriginalIfLarger }));
        // What the worker hands back (convert.worker.ts): the source itself where the outcome says to keep it.
        const keptSource = result.keptOriginal !== null;
        const bytes = keptSource ? source : Buffer.from(result.bytes);
        if (keptSource) {
          expect(keepOriginalIfLarger && !stripMetadata, combination).toBe(true);
          expect(result.keptOriginal!.convertedBytes, combination).toBeGreaterThanOrEqual(source.length);
        }
        expect(magicFormat(bytes), combination).toBe(format);
        const metadata = await sharp(sharpReadable(bytes)).metadata();
        expect([metadata.width, metadata.height], combination).toEqual([width, height]);
        const exif = await exifOf(bytes);
        if (stripMetadata) expect(exif.text, combination).toBeUndefined();
        // Formats we write EXIF into keep the camera's; AVIF's encoder has no place for it, unless the source came back.
        else if (format !== 'avif' || keptSource) {
          expect(exif.text, combination).toContain(CAMERA.IFD0.Make);
          expect(exif.text, combination).toContain(CAMERA.IFD0.Model);
          expect(exif.orientation, combination).toBe(1);
        }
      }
    },
  );

  // The browser's canvas encoders are held to the band in tests/e2e/convert.spec.ts (WebP); these formats' encoders
  // are the same WebAssembly in Node as in the page.
  it.each(['jpeg', 'avif'] as const)('a target size just above what quality 60 gives lands within [0.95, 1.0] × target (%s)', async (format) => {
    const large = await photo(1200, 900, 11).jpeg({ quality: 92 }).toBuffer();
    const atSixty = (await convert(await requestFor(large, { outputFormat: format, quality: 60 }))).bytes.byteLength;
    const target = Math.ceil(atSixty / 1024) * 1024;
    const result = await convert(await requestFor(large, { outputFormat: format, enableTargetSize: true, targetFileSize: target / 1024 }));
    expect(result.bytes.byteLength).toBeLessThanOrEqual(target);
    expect(result.bytes.byteLength).toBeGreaterThanOrEqual(0.95 * target);
  });

  it('brightness +50 makes the picture measurably brighter', async () => {
    const png = await photo(400, 300).png().toBuffer();
    const meanOf = async (bytes: ArrayBuffer) => (await sharp(Buffer.from(bytes)).stats()).channels.slice(0, 3).reduce((sum, channel) => sum + channel.mean, 0) / 3;
    const plain = await meanOf((await convert(await requestFor(png, { outputFormat: 'png' }))).bytes);
    const bright = await meanOf((await convert(await requestFor(png, { outputFormat: 'png', brightness: 50 }))).bytes);
    expect(bright).toBeGreaterThan(plain * 1.3);
  });
});
