import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { CONVERSION_ERRORS } from '../../core/messages.ts';
import { detectFormat, sourceFormatInfo } from '../../core/formats.ts';
import { planJob } from '../../core/plan.ts';
import { readImageHeader } from '../../src/conversion/probe.ts';
import { resizeLanczos3, SOURCE_CODECS } from '../../wasm/index.ts';
import { toImageData } from '../../core/raw-image.ts';
import { framesAlike } from '../../core/geometry.ts';
import { shownSizeOf } from '../../core/orientation.ts';
import { uprightPixels } from '../../workers/pipeline/pixels.ts';
import { convertImage } from '../../workers/pipeline/convert.ts';
import { codedTiles, exifItem, heifEncoded, heicGrid } from '../fixtures/heif-grid.ts';
import { withHeifTransforms } from '../fixtures/heif-transforms.ts';
import { photoPixels } from '../fixtures/make-fixtures.ts';
import { chromiumCanvas } from './support/canvas.ts';
import { serveBuildAssets } from './support/serveBuildAssets.ts';
import { provideImageData } from './support/imageData.ts';

/**
 * HEIC through libheif in WebAssembly (wasm/heic), in Node as in a browser without a HEIC decoder: files made here
 * by libheif's own encoder (heif-enc with x265, Debian's libheif-examples), decoded, and converted by the worker's
 * pipeline.
 */

const WIDTH = 64;
const HEIGHT = 48;
let work = '';
const heic: Record<'eight' | 'ten', Buffer> = { eight: Buffer.alloc(0), ten: Buffer.alloc(0) };

beforeAll(async () => {
  serveBuildAssets();
  provideImageData();
  work = mkdtempSync(join(tmpdir(), 'heic-'));
  const rgb = photoPixels(WIDTH, HEIGHT, 4);
  await sharp(rgb, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png().toFile(join(work, 'photo.png'));
  await sharp(rgb, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).toColourspace('rgb16').png().toFile(join(work, 'photo-16.png'));
  execFileSync('heif-enc', ['-q', '90', '-o', join(work, 'eight.heic'), join(work, 'photo.png')]);
  execFileSync('heif-enc', ['-b', '10', '-q', '90', '-o', join(work, 'ten.heic'), join(work, 'photo-16.png')]);
  heic.eight = readFileSync(join(work, 'eight.heic'));
  heic.ten = readFileSync(join(work, 'ten.heic'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The mean difference per channel from the picture the files were made from (0–255): RGB `source`, RGBA `rgba`. */
function differenceFromSource(rgba: Uint8ClampedArray, source: Buffer = photoPixels(WIDTH, HEIGHT, 4)): number {
  const pixels = source.length / 3;
  let sum = 0;
  for (let i = 0; i < pixels; i++) for (let c = 0; c < 3; c++) sum += Math.abs(source[i * 3 + c]! - rgba[i * 4 + c]!);
  return sum / (pixels * 3);
}

describe('HEIC', () => {
  it('is recognised by its ftyp brand, and its header gives the size', async () => {
    for (const bytes of [heic.eight, heic.ten]) {
      expect(detectFormat(bytes)).toBe('heic');
      expect(await readImageHeader('heic', new Uint8Array(bytes))).toEqual({ size: { width: WIDTH, height: HEIGHT }, orientation: 1 });
    }
  });

  it('8- and 10-bit files decode through libheif to the picture they were made from', async () => {
    for (const bytes of [heic.eight, heic.ten]) {
      const image = await SOURCE_CODECS.heic.decode(new Uint8Array(bytes).slice().buffer);
      expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
      expect(differenceFromSource(image.data)).toBeLessThan(6);
    }
  });

  it('a photo an iPhone marks upright with irot: turned in the header, shown turned by libheif, converted upright', async () => {
    const turned = withHeifTransforms(heic.eight, 1, null);
    expect(await readImageHeader('heic', new Uint8Array(turned))).toEqual({ size: { width: WIDTH, height: HEIGHT }, orientation: 8 });
    const image = await SOURCE_CODECS.heic.decode(new Uint8Array(turned).slice().buffer);
    expect([image.width, image.height]).toEqual([HEIGHT, WIDTH]);
    // irot 1 is a quarter turn anticlockwise: sharp's rotate(270).
    const upright = await sharp(photoPixels(WIDTH, HEIGHT, 4), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).rotate(270).raw().toBuffer();
    expect(differenceFromSource(image.data, upright)).toBeLessThan(6);
    const header = (await readImageHeader('heic', new Uint8Array(turned)))!;
    const all = { ...DEFAULT_SETTINGS, outputFormat: 'png' as const };
    const request = { file: new Blob([new Uint8Array(turned)]), settings: all, plan: planJob({ format: 'heic', ...header }, all, chromiumCanvas), pixelLimit: 100_000_000, decodeAlone: true, alone: true, keepAt: null, judgeLater: false };
    const result = await convertImage(request, (raw, width, height) => resizeLanczos3(toImageData(raw), width, height), () => {});
    expect([result.width, result.height]).toEqual([HEIGHT, WIDTH]);
  });

  it('a photo as an iPhone writes it, a grid of tiles with irot and EXIF Orientation 6: its header gives the grid, libheif shows it upright once', async () => {
    // Two 64 × 64 tiles side by side, cropped to 120 × 60: the grid's right and bottom edges are not the tiles'.
    const [tile, width, height] = [64, 120, 60];
    const stored = photoPixels(2 * tile, tile, 9);
    const tiles = await codedTiles(stored, { columns: 2, rows: 1, tile }, 90, join(work, 'tile.png'));
    const grid = heicGrid({ tiles, columns: 2, tile, width, height, irot: 3, exif: await exifItem(6, join(work, 'exif.jpg')) });

    expect(await readImageHeader('heic', new Uint8Array(grid))).toEqual({ size: { width, height }, orientation: 6 });
    const image = await SOURCE_CODECS.heic.decode(new Uint8Array(grid).slice().buffer);
    expect([image.width, image.height]).toEqual([height, width]);
    // irot 3, three quarter turns anticlockwise, is a quarter turn clockwise (EXIF 6): applied once, not again for the EXIF.
    const upright = await sharp(stored, { raw: { width: 2 * tile, height: tile, channels: 3 } }).extract({ left: 0, top: 0, width, height }).rotate(90).raw().toBuffer();
    expect(differenceFromSource(image.data, upright)).toBeLessThan(6);
  });

  it("an iPhone's thumbnail: found beside the grid, decoded alone, stored as the grid is (no irot of its own), and upright once turned as the grid is", async () => {
    // Tiles and thumbnail of 64 px or more: heif-enc writes a smaller picture as a grid of one tile.
    const [tile, width, height] = [128, 240, 120];
    const stored = photoPixels(2 * tile, tile, 13);
    const storedImage = () => sharp(stored, { raw: { width: 2 * tile, height: tile, channels: 3 } });
    const tiles = await codedTiles(stored, { columns: 2, rows: 1, tile }, 90, join(work, 'tile.png'));
    // The thumbnail of the stored picture (landscape, as the grid is stored), at 2:1 as the grid shows.
    const [thumbWidth, thumbHeight] = [128, 64];
    const thumbnailPng = join(work, 'thumbnail.png');
    const storedThumbnail = await storedImage().extract({ left: 0, top: 0, width, height }).resize(thumbWidth, thumbHeight).raw().toBuffer();
    await sharp(storedThumbnail, { raw: { width: thumbWidth, height: thumbHeight, channels: 3 } }).png().toFile(thumbnailPng);
    const thumbnail = { item: heifEncoded(thumbnailPng, 95), width: thumbWidth, height: thumbHeight };
    const grid = heicGrid({ tiles, columns: 2, tile, width, height, irot: 3, exif: await exifItem(6, join(work, 'exif.jpg')), thumbnail });

    // The header is the grid's, not the thumbnail's.
    const header = (await readImageHeader('heic', new Uint8Array(grid)))!;
    expect(header).toEqual({ size: { width, height }, orientation: 6 });
    const found = (await SOURCE_CODECS.heic.decodeThumbnail!(new Uint8Array(grid).slice().buffer, 100))!;
    expect([found.image.width, found.image.height, found.turnedOwnWay]).toEqual([thumbWidth, thumbHeight, false]);
    expect(differenceFromSource(found.image.data, storedThumbnail)).toBeLessThan(8);
    // Turned as the grid is, it shows as the grid shows: upright, portrait.
    const upright = uprightPixels(found.image, header.orientation);
    expect(framesAlike(upright, shownSizeOf(header.size, header.orientation))).toBe(true);
    const uprightThumbnail = await sharp(storedThumbnail, { raw: { width: thumbWidth, height: thumbHeight, channels: 3 } }).rotate(90).raw().toBuffer();
    expect(differenceFromSource(upright.data, uprightThumbnail)).toBeLessThan(8);

    // None as large as asked, and none at all: null, for a whole decode instead.
    expect(await SOURCE_CODECS.heic.decodeThumbnail!(new Uint8Array(grid).slice().buffer, thumbWidth + 1)).toBeNull();
    expect(await SOURCE_CODECS.heic.decodeThumbnail!(new Uint8Array(heic.eight).slice().buffer, 8)).toBeNull();
  });

  it('converts to JPG and PNG through the worker pipeline, at its size', async () => {
    const settings = { ...DEFAULT_SETTINGS, outputFormat: 'png' as const };
    const header = (await readImageHeader('heic', new Uint8Array(heic.eight)))!;
    for (const outputFormat of ['jpeg', 'png'] as const) {
      const all = { ...settings, outputFormat };
      const file = new Blob([new Uint8Array(heic.eight)], { type: sourceFormatInfo('heic').mimeType });
      const request = { file, settings: all, plan: planJob({ format: 'heic', ...header }, all, chromiumCanvas), pixelLimit: 100_000_000, decodeAlone: true, alone: true, keepAt: null, judgeLater: false };
      const result = await convertImage(request, (image, width, height) => resizeLanczos3(toImageData(image), width, height), () => {});
      const metadata = await sharp(Buffer.from(result.bytes)).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual([outputFormat, WIDTH, HEIGHT]);
    }
  });

  it('a damaged file (cut short) fails with the load message, not a crash', async () => {
    const cut = new Uint8Array(heic.eight).slice(0, Math.floor(heic.eight.length / 2));
    await expect(SOURCE_CODECS.heic.decode(cut.buffer)).rejects.toThrow();
    const header = (await readImageHeader('heic', cut))!;
    const file = new Blob([cut], { type: 'image/heic' });
    const request = { file, settings: DEFAULT_SETTINGS, plan: planJob({ format: 'heic', ...header }, DEFAULT_SETTINGS, chromiumCanvas), pixelLimit: 100_000_000, decodeAlone: true, alone: true, keepAt: null, judgeLater: false };
    await expect(convertImage(request, (image, width, height) => resizeLanczos3(toImageData(image), width, height), () => {})).rejects.toThrow(CONVERSION_ERRORS.load);
  });
});
