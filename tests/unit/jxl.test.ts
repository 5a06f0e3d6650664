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
 * JPEG XL through libjxl in WebAssembly (wasm/jxl: this app's build, decoder and encoder), in Node as in a browser without a JPEG XL
 * decoder: files made here by libjxl's own cjxl (Debian's libjxl-tools), their headers read and decoded; and what
 * the app writes, read back by djxl and jxlinfo.
 */

const WIDTH = 72;
const HEIGHT = 40;
let work = '';
const files: Record<'lossy' | 'lossless' | 'recompressed', Buffer> = { lossy: Buffer.alloc(0), lossless: Buffer.alloc(0), recompressed: Buffer.alloc(0) };
/** A JPEG whose EXIF says "turn 90° clockwise", recompressed by cjxl: libjxl moves the orientation into the codestream. */
let turned = Buffer.alloc(0);

/** libjxl's own cjxl, from `input` to `output` in the work folder. */
const cjxl = (input: string, output: string, ...options: string[]) => execFileSync('cjxl', [join(work, input), join(work, output), ...options, '--quiet']);

/** `input` written by cjxl with `options`, then decoded by the app's JPEG XL decoder. */
async function decodedAfterCjxl(input: string, ...options: string[]) {
  const output = `${input.replace(/\.[^.]+$/, '')}-${options.join('')}.jxl`;
  cjxl(input, output, ...options);
  return SOURCE_CODECS.jxl.decode(new Uint8Array(readFileSync(join(work, output))).slice().buffer);
}

beforeAll(async () => {
  serveBuildAssets();
  work = mkdtempSync(join(tmpdir(), 'jxl-'));
  const picture = sharp(photoPixels(WIDTH, HEIGHT, 8), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
  await picture.clone().png().toFile(join(work, 'photo.png'));
  await picture.clone().jpeg({ quality: 90 }).toFile(join(work, 'photo.jpg'));
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

  it('a picture stored in a wide gamut (Display P3, an ICC profile) decodes to sRGB, as a colour-managed viewer shows it, lossy and lossless', async () => {
    // Saturated hues across, darker down: where Display P3's values differ most from sRGB's.
    const hues = Buffer.alloc(WIDTH * HEIGHT * 3);
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const [h, v] = [(x / WIDTH) * 6, 200 - y * 2];
        const [up, down] = [v * (h - Math.floor(h)), v * (1 - (h - Math.floor(h)))];
        const rgb = [[v, up, 0], [down, v, 0], [0, v, up], [0, down, v], [up, 0, v], [v, 0, down]][Math.floor(h)]!;
        hues.set(rgb.map(Math.round), (y * WIDTH + x) * 3);
      }
    }
    const differenceFromHues = (rgba: Uint8ClampedArray | Buffer, channels: number) => {
      let sum = 0;
      for (let i = 0; i < WIDTH * HEIGHT; i++) for (let c = 0; c < 3; c++) sum += Math.abs(hues[i * 3 + c]! - rgba[i * channels + c]!);
      return sum / (WIDTH * HEIGHT * 3);
    };
    // The sRGB picture converted into Display P3 and tagged with it: read without its profile, it is far off.
    const p3 = await sharp(hues, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).withIccProfile('p3').png().toBuffer();
    const { data: storedValues } = await sharp(p3, { ignoreIcc: true }).raw().toBuffer({ resolveWithObject: true });
    expect(differenceFromHues(storedValues, 3)).toBeGreaterThan(12);
    writeFileSync(join(work, 'p3.png'), p3);
    for (const [name, distance, within] of [['lossy', '1', 4], ['lossless', '0', 1]] as const) {
      const image = await decodedAfterCjxl('p3.png', '-d', distance);
      expect([image.width, image.height], name).toEqual([WIDTH, HEIGHT]);
      expect(differenceFromHues(image.data, 4), name).toBeLessThan(within);
    }
  });

  it('a grey picture decodes to grey RGB; alpha comes back straight; an animation gives its first frame', async () => {
    const grey = await sharp(photoPixels(WIDTH, HEIGHT, 8), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).greyscale().png().toBuffer();
    writeFileSync(join(work, 'grey.png'), grey);
    const greyImage = await decodedAfterCjxl('grey.png', '-d', '0');
    const { data: greyValues } = await sharp(grey).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    for (let i = 0; i < WIDTH * HEIGHT; i++) expect([...greyImage.data.subarray(i * 4, i * 4 + 4)]).toEqual([greyValues[i], greyValues[i], greyValues[i], 255]);

    // Alpha from 0 to 255 across the picture, lossless: each pixel's colour and alpha as they were (not premultiplied).
    const rgba = Buffer.alloc(WIDTH * HEIGHT * 4);
    const rgb = photoPixels(WIDTH, HEIGHT, 8);
    for (let i = 0; i < WIDTH * HEIGHT; i++) rgba.set([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!, Math.round(((i % WIDTH) / (WIDTH - 1)) * 255)], i * 4);
    await sharp(rgba, { raw: { width: WIDTH, height: HEIGHT, channels: 4 } }).png().toFile(join(work, 'alpha.png'));
    const alphaImage = await decodedAfterCjxl('alpha.png', '-d', '0');
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      if (rgba[i * 4 + 3] === 0) continue;
      expect([...alphaImage.data.subarray(i * 4, i * 4 + 4)]).toEqual([...rgba.subarray(i * 4, i * 4 + 4)]);
    }

    // Three frames, red, green and blue: the first is the picture.
    const frames = await Promise.all(['#e01010', '#10c010', '#1010e0'].map((colour) => sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: colour } }).png().toBuffer()));
    await sharp(frames, { join: { animated: true } }).gif({ delay: 200, loop: 0 }).toFile(join(work, 'animated.gif'));
    const animated = await decodedAfterCjxl('animated.gif', '-d', '0');
    expect([animated.width, animated.height]).toEqual([WIDTH, HEIGHT]);
    const [r, g, b] = animated.data.subarray(0, 3);
    expect(r).toBeGreaterThan(200);
    expect(Math.max(g!, b!)).toBeLessThan(40);
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
