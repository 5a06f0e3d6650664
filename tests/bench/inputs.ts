import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import sharp from 'sharp';
import { random } from '../fixtures/make-fixtures.ts';
import { codedTiles, exifItem, heifEncoded, heicGrid } from '../fixtures/heif-grid.ts';
import { extractedPackage, galleryPhotos } from '../corpus/sources.ts';

/**
 * Photo-like bench inputs, made at bench time and cached in tests/bench/.inputs/ (git-ignored).
 * A "natural" base (fractal noise: the 1/f spectrum of real scenes, with soft shapes and colour regions) is
 * upscaled with Lanczos and given sensor grain, which is how a camera photo looks to an encoder.
 */

const INPUT_DIR = join(import.meta.dirname, '.inputs', 'v3');

function valueNoise(width: number, height: number, cell: number, rand: () => number): Float32Array {
  const gw = Math.ceil(width / cell) + 2;
  const gh = Math.ceil(height / cell) + 2;
  const grid = Float32Array.from({ length: gw * gh }, () => rand());
  const out = new Float32Array(width * height);
  const smooth = (t: number) => t * t * (3 - 2 * t);
  for (let y = 0; y < height; y++) {
    const gy = y / cell;
    const y0 = Math.floor(gy);
    const ty = smooth(gy - y0);
    for (let x = 0; x < width; x++) {
      const gx = x / cell;
      const x0 = Math.floor(gx);
      const tx = smooth(gx - x0);
      const a = grid[y0 * gw + x0]!;
      const b = grid[y0 * gw + x0 + 1]!;
      const c = grid[(y0 + 1) * gw + x0]!;
      const d = grid[(y0 + 1) * gw + x0 + 1]!;
      out[y * width + x] = a + (b - a) * tx + (c - a) * ty + (a - b - c + d) * tx * ty;
    }
  }
  return out;
}

function fractal(width: number, height: number, rand: () => number, largest: number, octaves: number): Float32Array {
  const sum = new Float32Array(width * height);
  let amplitude = 1;
  let total = 0;
  for (let o = 0, cell = largest; o < octaves && cell >= 1; o++, cell /= 2) {
    const layer = valueNoise(width, height, cell, rand);
    for (let i = 0; i < sum.length; i++) sum[i]! += layer[i]! * amplitude;
    total += amplitude;
    amplitude *= 0.55;
  }
  for (let i = 0; i < sum.length; i++) sum[i]! /= total;
  return sum;
}

/** A base "scene" at half the final size. */
function scene(width: number, height: number, seed: number): Buffer {
  const rand = random(seed);
  const light = fractal(width, height, rand, 512, 10);
  const texture = fractal(width, height, rand, 8, 3);
  const hue = fractal(width, height, rand, 384, 3);
  const shapes = fractal(width, height, rand, 96, 4);
  const out = Buffer.alloc(width * height * 3);
  const palette = [
    [70, 110, 60], [150, 120, 80], [90, 130, 180], [200, 180, 150], [120, 80, 60], [60, 70, 90],
  ].map((c) => c.map((v) => v + (rand() - 0.5) * 40));
  for (let i = 0; i < width * height; i++) {
    const region = Math.min(palette.length - 1, Math.floor(hue[i]! * palette.length * 1.4 - 0.2 * palette.length));
    const base = palette[Math.max(0, region)]!;
    // Hard edges where the shape field crosses a level, as object outlines do.
    const edge = shapes[i]! > 0.52 ? 1.25 : 0.85;
    // Fine texture (foliage, fabric, gravel) on top of the light: what makes real photos expensive to encode.
    const l = (0.3 + light[i]! * 1.0 + (texture[i]! - 0.5) * 0.7) * edge;
    out[i * 3] = Math.max(0, Math.min(255, base[0]! * l));
    out[i * 3 + 1] = Math.max(0, Math.min(255, base[1]! * l));
    out[i * 3 + 2] = Math.max(0, Math.min(255, base[2]! * l));
  }
  return out;
}

/** Roughly Gaussian sensor grain (sum of two uniforms) of ± `amplitude` levels, in place. */
function addGrain(rgb: Buffer, seed: number, amplitude: number): void {
  const rand = random(seed * 7919);
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.max(0, Math.min(255, rgb[i]! + (rand() + rand() - 1) * amplitude));
}

const encodeInput = (rgb: Buffer, width: number, height: number) =>
  sharp(rgb, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92, chromaSubsampling: '4:2:0' }).toBuffer();

async function photo(width: number, height: number, seed: number): Promise<Buffer> {
  const small = { width: Math.round(width / 2), height: Math.round(height / 2) };
  const upscaled = await sharp(scene(small.width, small.height, seed), { raw: { ...small, channels: 3 } })
    .resize(width, height, { kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  addGrain(upscaled, seed, 14); // σ ≈ 6 levels
  return encodeInput(upscaled, width, height);
}

/**
 * A real photo as the base instead of the synthetic scene: scaled to cover width × height, with lighter grain
 * (σ ≈ 3 levels, what is left after a phone's denoising) so an upscaled photo does not look unnaturally smooth.
 */
export async function photoFrom(natural: string, width: number, height: number, seed: number): Promise<Buffer> {
  const rgb = await sharp(natural).rotate().resize(width, height, { fit: 'cover', kernel: 'lanczos3' }).removeAlpha().raw().toBuffer();
  addGrain(rgb, seed, 7);
  return encodeInput(rgb, width, height);
}

export interface InputSet {
  name: string;
  paths: string[];
  /**
   * Each input as a reference decoder renders it, upright, where sharp cannot read the input itself (HEIC: libheif's
   * heif-convert): what the outputs' SSIM is taken against. Absent: the inputs themselves.
   */
  references?: string[];
}

/**
 * The corpus's photographs (no artwork), for the comparisons at an equal look: MATE's nature wallpapers, twelve JPEGs
 * from 1680 × 1050 to 2560 × 1920 (the package fetched as the conformance corpus fetches it).
 */
export const corpusPhotographs = () => naturalPhotos(join(extractedPackage('mate-backgrounds'), 'usr', 'share', 'backgrounds', 'mate', 'nature'));

/** The corpus's gallery photos (tests/corpus/sources.ts galleryPhotos), as the bench's input set. */
export function corpusGallery(): InputSet {
  const paths = galleryPhotos();
  return { name: `${paths.length} real photos as they are (1.3–9.2 MP)`, paths };
}

/** The JPEG, PNG and WebP photos in `dir`, for --photos. */
export function naturalPhotos(dir: string): string[] {
  const found = readdirSync(dir)
    .filter((name) => /\.(jpe?g|png|webp)$/i.test(name))
    .sort()
    .map((name) => join(dir, name));
  if (found.length === 0) throw new Error(`--photos ${dir}: no JPEG, PNG or WebP files there`);
  return found;
}

/**
 * `count` distinct photos of width × height (cached): synthetic scenes, or made from `naturals` (real photos,
 * used in turn) when given. Named `stem`-01.jpg and on: two sets in one batch need stems of their own, or the zip's
 * outputs share names.
 */
export async function photoSet(count: number, width: number, height: number, naturals?: string[], stem = 'photo'): Promise<InputSet> {
  const source = naturals ? `photos-${createHash('sha1').update(naturals.join('\n')).digest('hex').slice(0, 8)}` : 'synthetic';
  const dir = join(INPUT_DIR, source, `${width}x${height}`);
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  for (let i = 1; i <= count; i++) {
    const path = join(dir, `${stem}-${String(i).padStart(2, '0')}.jpg`);
    if (!existsSync(path)) {
      const seed = 1000 + i;
      writeFileSync(path, naturals ? await photoFrom(naturals[(i - 1) % naturals.length]!, width, height, seed) : await photo(width, height, seed));
    }
    paths.push(path);
  }
  const megapixels = ((width * height) / 1e6).toFixed(0);
  return { name: naturals ? `${count} × ${megapixels} MP from ${naturals.length} real photos` : `${count} × ${megapixels} MP`, paths };
}

/** An iPhone's main camera: 12 MP, stored landscape, in a grid of 512 × 512 HEVC tiles (8 × 6, cropped). */
const IPHONE = { width: 4032, height: 3024, tile: 512, thumbnail: { width: 320, height: 240 } } as const;

/**
 * `count` HEICs as an iPhone writes a portrait photo (cached): 12 MP stored landscape as a grid of 512 × 512 HEVC
 * tiles (tests/fixtures/heif-grid.ts; x265 at heif-enc's quality 60, 1.5–2 MB a photo, as an iPhone's), with `irot`
 * and the EXIF Orientation 6 that show it upright, and a 320 × 240 thumbnail stored as the grid is (no `irot` of its own), made from the real photos `naturals` in turn. With each, its
 * upright rendering by libheif (heif-convert) for the outputs' SSIM.
 */
export async function iphoneHeicSet(count: number, naturals: string[]): Promise<InputSet> {
  const { width, height, tile } = IPHONE;
  const [columns, rows] = [Math.ceil(width / tile), Math.ceil(height / tile)];
  const dir = join(INPUT_DIR, `photos-${createHash('sha1').update(naturals.join('\n')).digest('hex').slice(0, 8)}`, 'iphone-heic-grid-thumbnail');
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  const references: string[] = [];
  for (let i = 1; i <= count; i++) {
    const stem = join(dir, `iphone-${String(i).padStart(2, '0')}`);
    if (!existsSync(`${stem}.png`)) {
      // The sensor's pixels, their right and bottom edges repeated to fill the last tiles (the grid crops them off).
      const stored = await sharp(await photoFrom(naturals[(i - 1) % naturals.length]!, width, height, 2000 + i))
        .extend({ right: columns * tile - width, bottom: rows * tile - height, extendWith: 'copy' })
        .raw()
        .toBuffer();
      const tiles = await codedTiles(stored, { columns, rows, tile }, 60, `${stem}.tile.png`);
      const exif = await exifItem(6, `${stem}.exif.jpg`);
      // The 320 × 240 thumbnail an iPhone writes beside the grid, stored as the grid is.
      const thumbnailPng = `${stem}.thumbnail.png`;
      await sharp(stored, { raw: { width: columns * tile, height: rows * tile, channels: 3 } }).extract({ left: 0, top: 0, width, height }).resize(IPHONE.thumbnail.width, IPHONE.thumbnail.height).png().toFile(thumbnailPng);
      const thumbnail = { item: heifEncoded(thumbnailPng, 60), ...IPHONE.thumbnail };
      rmSync(thumbnailPng);
      writeFileSync(`${stem}.heic`, heicGrid({ tiles, columns, tile, width, height, irot: 3, exif, thumbnail }));
      // The reference last, written whole before it is named: its presence says the pair is complete.
      execFileSync('heif-convert', ['--quiet', `${stem}.heic`, `${stem}.tmp.png`], { stdio: 'ignore' });
      renameSync(`${stem}.tmp.png`, `${stem}.png`);
    }
    paths.push(`${stem}.heic`);
    references.push(`${stem}.png`);
  }
  return { name: `${count} × 12 MP iPhone-style HEIC (a grid of 512 × 512 tiles and a 320 × 240 thumbnail; portrait: irot and EXIF Orientation 6) from ${naturals.length} real photos`, paths, references };
}

/** Raw PPM copies for cjpeg, which does not read JPEG (made before timing starts). */
export async function ppmCopy(path: string): Promise<string> {
  const target = path.replace(/\.jpg$/, '.ppm');
  if (!existsSync(target)) {
    const { data, info } = await sharp(path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    writeFileSync(target, Buffer.concat([Buffer.from(`P6\n${info.width} ${info.height}\n255\n`), data]));
  }
  return target;
}

/**
 * A folder of `count` photos as a phone's trip leaves them: the photos of `sets` in turn (12 MP HEIC and JPEG), each
 * under a name of its own (photo-0001.heic, photo-0002.jpg, …), as links to the same bytes. The folder holds these and
 * nothing else, so it can be added whole with "Add a folder" (app-page.ts stageFolderForDialog).
 */
export function photoFolder(count: number, sets: readonly InputSet[], name: string): InputSet & { folder: string } {
  // The sets' photos in turn, each with what sharp reads for it (a HEIC's libheif rendering, InputSet.references).
  const sources = Array.from({ length: Math.max(...sets.map((set) => set.paths.length)) * sets.length }, (_, i) => {
    const set = sets[i % sets.length]!;
    const at = Math.floor(i / sets.length) % set.paths.length;
    return { path: set.paths[at]!, reference: (set.references ?? set.paths)[at]! };
  });
  const folder = join(INPUT_DIR, 'folders', `${count}-${createHash('sha1').update(sources.map(({ path }) => path).join('\n')).digest('hex').slice(0, 8)}`);
  mkdirSync(folder, { recursive: true });
  const chosen = Array.from({ length: count }, (_, i) => sources[i % sources.length]!);
  const paths = chosen.map(({ path: source }, i) => {
    const path = join(folder, `photo-${String(i + 1).padStart(4, '0')}${extname(source)}`);
    if (!existsSync(path)) linkSync(source, path);
    return path;
  });
  return { name, paths, references: chosen.map(({ reference }) => reference), folder };
}
