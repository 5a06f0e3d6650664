import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exifOrientation } from '../../core/exif.ts';
import { detectFormat } from '../../core/formats.ts';
import { readImageHeader } from '../../src/conversion/probe.ts';
import { CODECS, SOURCE_CODECS } from '../../wasm/index.ts';
import { encodeLibjxl } from '../../wasm/jxl/loader.ts';
import { FAST_EFFORT, libjxlOptions } from '../../wasm/jxl/options.ts';
import { photoPixels } from '../fixtures/make-fixtures.ts';
import { serveBuildAssets } from './support/serveBuildAssets.ts';

/**
 * JPEG XL through libjxl in WebAssembly (wasm/jxl: jSquash's decoder, this app's encoder), in Node as in a browser without a JPEG XL
 * decoder: files made here by libjxl's own cjxl (Debian's libjxl-tools), their headers read and decoded; and what
 * the app writes, read back by djxl and jxlinfo.
 */

const WIDTH = 72;
const HEIGHT = 40;
let work = '';
const files: Record<'lossy' | 'lossless' | 'recompressed', Buffer> = { lossy: Buffer.alloc(0), lossless: Buffer.alloc(0), recompressed: Buffer.alloc(0) };
/** A JPEG whose EXIF says "turn 90° clockwise", recompressed by cjxl: libjxl moves the orientation into the codestream. */
let turned = Buffer.alloc(0);

beforeAll(async () => {
  serveBuildAssets();
  work = mkdtempSync(join(tmpdir(), 'jxl-'));
  const picture = sharp(photoPixels(WIDTH, HEIGHT, 8), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
  await picture.clone().png().toFile(join(work, 'photo.png'));
  await picture.clone().jpeg({ quality: 90 }).toFile(join(work, 'photo.jpg'));
  const cjxl = (input: string, output: string, ...options: string[]) => execFileSync('cjxl', [join(work, input), join(work, output), ...options, '--quiet']);
  cjxl('photo.png', 'lossy.jxl', '-d', '1');
  cjxl('photo.png', 'lossless.jxl', '-d', '0');
  // A JPEG recompressed losslessly: a container (JXL signature box, ftyp, jbrd, then the codestream).
  cjxl('photo.jpg', 'recompressed.jxl');
  for (const name of ['lossy', 'lossless', 'recompressed'] as const) files[name] = readFileSync(join(work, `${name}.jxl`));
  await picture.clone().jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toFile(join(work, 'turned.jpg'));
  cjxl('turned.jpg', 'turned.jxl', '--lossless_jpeg=0');
  turned = readFileSync(join(work, 'turned.jxl'));
});

/** What libjxl's own tools read of a file the app wrote: djxl's pixels (RGBA) and jxlinfo's description. */
async function readByLibjxlTools(bytes: Uint8Array, name: string): Promise<{ pixels: Uint8ClampedArray; width: number; height: number; info: string }> {
  const path = join(work, `${name}.jxl`);
  writeFileSync(path, bytes);
  execFileSync('djxl', [path, join(work, `${name}.png`), '--quiet'], { stdio: 'pipe' });
  const { data, info } = await sharp(join(work, `${name}.png`)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { pixels: new Uint8ClampedArray(data), width: info.width, height: info.height, info: execFileSync('jxlinfo', ['-v', path]).toString() };
}

/** The test picture as the encoder takes it (ImageData's shape). */
function pictureRgba(): ImageData {
  const rgb = photoPixels(WIDTH, HEIGHT, 8);
  const data = new Uint8ClampedArray(WIDTH * HEIGHT * 4);
  for (let i = 0; i < WIDTH * HEIGHT; i++) data.set([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!, 255], i * 4);
  return { data, width: WIDTH, height: HEIGHT, colorSpace: 'srgb' } as ImageData;
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The mean difference per channel from the picture the files were made from (0–255). */
function differenceFromSource(rgba: Uint8ClampedArray): number {
  const source = photoPixels(WIDTH, HEIGHT, 8);
  let sum = 0;
  for (let i = 0; i < WIDTH * HEIGHT; i++) for (let c = 0; c < 3; c++) sum += Math.abs(source[i * 3 + c]! - rgba[i * 4 + c]!);
  return sum / (WIDTH * HEIGHT * 3);
}

describe('JPEG XL', () => {
  it('a bare codestream and a container are both recognised, and their headers give the size', async () => {
    expect(files.lossy[0]).toBe(0xff);
    expect(files.recompressed.subarray(4, 8).toString('latin1')).toBe('JXL ');
    for (const bytes of Object.values(files)) {
      expect(detectFormat(bytes)).toBe('jxl');
      expect(await readImageHeader('jxl', new Uint8Array(bytes))).toEqual({ size: { width: WIDTH, height: HEIGHT }, orientation: 1 });
    }
  });

  it('libjxl decodes each to the picture it was made from (lossless exactly)', async () => {
    for (const [name, bytes] of Object.entries(files)) {
      const image = await SOURCE_CODECS.jxl.decode(new Uint8Array(bytes).slice().buffer);
      expect([image.width, image.height], name).toEqual([WIDTH, HEIGHT]);
      expect(differenceFromSource(image.data), name).toBeLessThan(name === 'lossless' ? 0.01 : 6);
    }
  });

  it('a file cut short has no size or fails to decode, and never hangs', async () => {
    const cut = new Uint8Array(files.lossy).slice(0, 8);
    const header = await readImageHeader('jxl', cut);
    if (header) expect(header.size).toEqual({ width: WIDTH, height: HEIGHT });
    const half = new Uint8Array(files.lossy).slice(0, Math.floor(files.lossy.length / 2));
    await expect(SOURCE_CODECS.jxl.decode(half.buffer)).rejects.toThrow();
  });

  it('a codestream turned a quarter by its orientation says so in its header, and decodes upright without turning again by its EXIF', async () => {
    expect(await readImageHeader('jxl', new Uint8Array(turned))).toEqual({ size: { width: WIDTH, height: HEIGHT }, orientation: 6 });
    const exif = SOURCE_CODECS.jxl.metadata.readExif(new Uint8Array(turned));
    // cjxl re-encoding a JPEG keeps only its orientation (in the codestream); an Exif box would be given back upright.
    expect(exif === null || exifOrientation(exif) === 1).toBe(true);
    const image = await SOURCE_CODECS.jxl.decode(new Uint8Array(turned).slice().buffer);
    expect([image.width, image.height]).toEqual([HEIGHT, WIDTH]);
    expect(SOURCE_CODECS.jxl.metadata.hasMetadata(new Uint8Array(files.lossy))).toBe(false);
  });
});

describe('JPEG XL output (libjxl, this app\'s build: wasm/jxl/build.sh)', () => {
  it('the slider maps to libjxl\'s quality, 100 % is lossless, and "Optimised compression" picks the slower effort', () => {
    expect(libjxlOptions(0.8, { thorough: true })).toEqual({ quality: 80, effort: 5 });
    expect(libjxlOptions(0.8, { thorough: false })).toEqual({ quality: 80, effort: FAST_EFFORT });
    expect(libjxlOptions(1, { thorough: true })).toEqual({ quality: 100, effort: 5 });
  });

  it('encodes a picture libjxl\'s own decoder reads back close to it, and exactly at 100 %', async () => {
    const lossy = new Uint8Array(await encodeLibjxl(pictureRgba(), libjxlOptions(0.8, { thorough: true }), false));
    const lossless = new Uint8Array(await encodeLibjxl(pictureRgba(), libjxlOptions(1, { thorough: true }), false));
    expect(detectFormat(lossy)).toBe('jxl');
    expect(await readImageHeader('jxl', lossy)).toEqual({ size: { width: WIDTH, height: HEIGHT }, orientation: 1 });
    const [decodedLossy, decodedLossless] = [await readByLibjxlTools(lossy, 'out-lossy'), await readByLibjxlTools(lossless, 'out-lossless')];
    expect([decodedLossy.width, decodedLossy.height]).toEqual([WIDTH, HEIGHT]);
    expect(differenceFromSource(decodedLossy.pixels)).toBeLessThan(6);
    expect(differenceFromSource(decodedLossless.pixels)).toBe(0);
    expect(lossy.length).toBeLessThan(lossless.length);
  });

  it('a picture wider than a DC group (2048 px), which libjxl encodes a group at a time, comes back whole: opaque and lossy close, with alpha and lossless exactly', async () => {
    // Two DC groups side by side, of 27 groups: enough for libjxl to stream (more than 8 groups).
    const [width, height] = [2100, 600];
    const rgb = photoPixels(width, height, 3);
    for (const [withAlpha, quality] of [[false, 0.8], [true, 1]] as const) {
      const data = new Uint8ClampedArray(width * height * 4);
      // With alpha: a transparent band down the left, a half-transparent one beside it.
      for (let i = 0; i < width * height; i++) data.set([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!, !withAlpha || i % width >= 200 ? 255 : i % width < 100 ? 0 : 128], i * 4);
      const image = { data, width, height, colorSpace: 'srgb' } as ImageData;
      const label = `${withAlpha ? 'alpha' : 'opaque'}, quality ${quality}`;
      const read = await readByLibjxlTools(new Uint8Array(await encodeLibjxl(image, libjxlOptions(quality, { thorough: false }), false)), `large-${withAlpha}-${quality}`);
      expect([read.width, read.height], label).toEqual([width, height]);
      let [colour, alpha] = [0, 0];
      for (let i = 0; i < width * height; i++) {
        for (let c = 0; c < 3; c++) colour += data[i * 4 + 3] === 0 ? 0 : Math.abs(data[i * 4 + c]! - read.pixels[i * 4 + c]!);
        alpha += Math.abs(data[i * 4 + 3]! - read.pixels[i * 4 + 3]!);
      }
      expect(alpha, label).toBe(0);
      if (quality === 1) expect(colour, label).toBe(0);
      else expect(colour / (width * height * 3), label).toBeLessThan(6);
      expect(read.info, label).toMatch(withAlpha ? /alpha/i : /^(?![\s\S]*alpha)/i);
    }
  });

  it('EXIF goes into the container (signature, ftyp, Exif, jxlc), which libjxl reads, and comes back upright', async () => {
    const encoded = new Uint8Array(await encodeLibjxl(pictureRgba(), libjxlOptions(0.8, { thorough: true }), false));
    const tiff = new Uint8Array(await sharp({ create: { width: 2, height: 2, channels: 3, background: 'red' } }).jpeg().withMetadata({ orientation: 8 }).toBuffer()).slice(0);
    const exif = SOURCE_CODECS.jpeg.metadata.readExif(tiff)!;
    expect(exifOrientation(exif)).toBe(8);
    const written = CODECS.jxl.metadata.writeExif!(encoded, exif, { width: WIDTH, height: HEIGHT });
    const read = await readByLibjxlTools(written, 'with-exif');
    expect(read.info).toMatch(/box: type: "Exif"/);
    expect(read.info).toMatch(/box: type: "jxlc"/);
    expect(differenceFromSource(read.pixels)).toBeLessThan(6);
    const back = CODECS.jxl.metadata.readExif(written)!;
    expect(back.length).toBe(exif.length);
    expect(exifOrientation(back)).toBe(1);
    expect(CODECS.jxl.metadata.hasMetadata(written)).toBe(true);
    // Written again into what is a container already: one more Exif box after ftyp, still read by libjxl.
    expect((await readByLibjxlTools(CODECS.jxl.metadata.writeExif!(written, exif, { width: WIDTH, height: HEIGHT }), 'twice')).width).toBe(WIDTH);
  });
});
