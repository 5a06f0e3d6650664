import sharp, { type Sharp, type TiffOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../core/formats.ts';
import { probeImage, readImageHeader } from '../../src/conversion/probe.ts';
import { SOURCE_CODECS } from '../../wasm/index.ts';
import { validateFile } from '../../src/features/intake/validateFile.ts';
import { bmpOf, photoPixels } from '../fixtures/make-fixtures.ts';
import { latin1, u16le, u32le } from './signatures.ts';

/** The sources only (TIFF, GIF, BMP): their header readers on the layouts files have, built here; TIFF's decoder too. */

const LIMIT = 100_000_000;

/** A BMP's file header and a DIB header of `dibSize` bytes with the given fields, then a few pixel bytes. */
function bmpWithHeader(dib: number[]): Uint8Array<ArrayBuffer> {
  const pixels = Array.from({ length: 64 }, () => 0x80);
  return Uint8Array.from([...latin1('BM'), ...u32le(14 + dib.length + pixels.length), 0, 0, 0, 0, ...u32le(14 + dib.length), ...dib, ...pixels]);
}

const i32le = (value: number) => u32le(value >>> 0);

/** A GIF's header and logical screen (with a 2-colour global table), then `blocks`, then the trailer. */
function gifWith(width: number, height: number, blocks: number[][]): Uint8Array {
  return Uint8Array.from([...latin1('GIF89a'), ...u16le(width), ...u16le(height), 0x80, 0, 0, 0, 0, 0, 255, 255, 255, ...blocks.flat(), 0x3b]);
}

/** An image descriptor (no local table), its LZW code size and one sub-block of data. */
const image = (width: number, height: number) => [0x2c, 0, 0, 0, 0, ...u16le(width), ...u16le(height), 0, 2, 2, 0x4c, 0x01, 0];
/** A graphic control extension: a frame's delay. */
const graphicControl = [0x21, 0xf9, 4, 0, 10, 0, 0, 0];
const loop = [0x21, 0xff, 11, ...latin1('NETSCAPE2.0'), 3, 1, 0, 0, 0];
/** A comment extension of more than one sub-block. */
const comment = [0x21, 0xfe, 3, ...latin1('abc'), 2, ...latin1('de'), 0];

describe('BMP headers', () => {
  it('BITMAPINFOHEADER, stored bottom-up (a positive height), as Paint writes it', async () => {
    const bytes = new Uint8Array(bmpOf(photoPixels(33, 17), 33, 17));
    expect(detectFormat(bytes)).toBe('bmp');
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 33, height: 17 }, orientation: 1 });
  });

  it('stored top-down: a negative height is the same size', async () => {
    const bytes = bmpWithHeader([...u32le(40), ...i32le(640), ...i32le(-480), ...u16le(1), ...u16le(32), ...u32le(3), ...Array.from({ length: 20 }, () => 0)]);
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 640, height: 480 }, orientation: 1 });
  });

  it('a V5 header (124 bytes: colour space, alpha mask), as 32-bit exports with transparency have', async () => {
    const bytes = bmpWithHeader([...u32le(124), ...i32le(1920), ...i32le(1080), ...u16le(1), ...u16le(32), ...u32le(3), ...Array.from({ length: 124 - 20 }, () => 0)]);
    expect(detectFormat(bytes)).toBe('bmp');
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 1920, height: 1080 }, orientation: 1 });
  });

  it('an OS/2 1.x header (12 bytes), whose width and height are 16-bit', async () => {
    const bytes = bmpWithHeader([...u32le(12), ...u16le(300), ...u16le(200), ...u16le(1), ...u16le(24)]);
    expect(detectFormat(bytes)).toBe('bmp');
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 300, height: 200 }, orientation: 1 });
  });

  it('a file cut inside its header has no size; a header that says 0 wide is refused as corrupted', async () => {
    const bytes = new Uint8Array(bmpOf(photoPixels(33, 17), 33, 17));
    for (const cut of [2, 14, 18, 22, 25]) expect(await readImageHeader('bmp', bytes.subarray(0, cut))).toBeNull();
    const empty = bmpWithHeader([...u32le(40), ...i32le(0), ...i32le(17), ...u16le(1), ...u16le(24), ...Array.from({ length: 24 }, () => 0)]);
    expect(await validateFile(new Blob([empty], { type: 'image/bmp' }), LIMIT)).toEqual({ isValid: false, message: 'Invalid file format. File may be corrupted or malicious.' });
  });
});

describe('GIF headers', () => {
  it('a still GIF from a real encoder (libvips through cgif): its size, not animated', async () => {
    const bytes = new Uint8Array(await sharp(photoPixels(48, 36), { raw: { width: 48, height: 36, channels: 3 } }).gif().toBuffer());
    expect(detectFormat(bytes)).toBe('gif');
    expect(await readImageHeader('gif', bytes)).toEqual({ size: { width: 48, height: 36 }, orientation: 1, animated: false });
  });

  it('an animated GIF from a real encoder (a looping extension, three frames): animated', async () => {
    const frame = (colour: string) => sharp({ create: { width: 20, height: 10, channels: 3, background: colour } }).png().toBuffer();
    const bytes = new Uint8Array(await sharp(await Promise.all(['red', 'lime', 'blue'].map(frame)), { join: { animated: true } }).gif({ delay: 100 }).toBuffer());
    expect(await readImageHeader('gif', bytes)).toEqual({ size: { width: 20, height: 10 }, orientation: 1, animated: true });
    // What intake keeps for the card's note.
    expect(await probeImage(new Blob([bytes]))).toMatchObject({ format: 'gif', animated: true });
    expect(await validateFile(new Blob([bytes], { type: 'image/gif' }), LIMIT)).toMatchObject({ isValid: true, animated: true });
  });

  it('two frames without a looping extension (a GIF that plays once) are animated too', async () => {
    const bytes = gifWith(8, 6, [comment, graphicControl, image(8, 6), graphicControl, image(8, 6)]);
    expect(await readImageHeader('gif', bytes)).toMatchObject({ size: { width: 8, height: 6 }, animated: true });
  });

  it('one frame after extensions of several sub-blocks is still', async () => {
    const bytes = gifWith(8, 6, [comment, graphicControl, image(8, 6), comment]);
    expect(await readImageHeader('gif', bytes)).toMatchObject({ animated: false });
  });

  it('the looping extension alone says animated, before any frame is read', async () => {
    expect(await readImageHeader('gif', gifWith(8, 6, [loop]))).toMatchObject({ animated: true });
  });

  it('a file cut anywhere gives its size or nothing, and never throws', async () => {
    const bytes = gifWith(8, 6, [loop, graphicControl, image(8, 6), graphicControl, image(8, 6)]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const read = await readImageHeader('gif', bytes.subarray(0, cut));
      if (read) expect(read.size).toEqual({ width: 8, height: 6 });
      else expect(cut).toBeLessThan(10);
    }
  });
});

/** A classic TIFF's directory (little-endian) of LONG tags, with the offset of the next one. */
function directory(tags: [number, number][], next: number): number[] {
  return [...u16le(tags.length), ...tags.flatMap(([tag, value]) => [...u16le(tag), ...u16le(4), ...u32le(1), ...u32le(value)]), ...u32le(next)];
}

describe('TIFF headers and decoding', () => {
  const rgb = photoPixels(40, 30, 6);
  const sharpTiff = (options: TiffOptions, image: Sharp = sharp(rgb, { raw: { width: 40, height: 30, channels: 3 } })) => image.tiff(options).toBuffer();

  it('libtiff\'s own files (through sharp): LZW, Deflate, none, JPEG-compressed; their size; UTIF decodes them to the picture', async () => {
    for (const compression of ['lzw', 'deflate', 'none', 'jpeg'] as const) {
      const bytes = new Uint8Array(await sharpTiff({ compression }));
      expect(detectFormat(bytes), compression).toBe('tiff');
      expect(await readImageHeader('tiff', bytes)).toEqual({ size: { width: 40, height: 30 }, orientation: 1 });
      const image = await SOURCE_CODECS.tiff.decode(bytes.slice().buffer);
      expect([image.width, image.height]).toEqual([40, 30]);
      let difference = 0;
      for (let i = 0; i < 40 * 30; i++) for (let c = 0; c < 3; c++) difference += Math.abs(rgb[i * 3 + c]! - image.data[i * 4 + c]!);
      expect(difference / (40 * 30 * 3), compression).toBeLessThan(compression === 'jpeg' ? 8 : 0.01);
    }
  });

  it('16-bit and grey decode to 8-bit RGBA', async () => {
    const sixteen = new Uint8Array(await sharpTiff({}, sharp(rgb, { raw: { width: 40, height: 30, channels: 3 } }).toColourspace('rgb16')));
    const grey = new Uint8Array(await sharpTiff({}, sharp(rgb, { raw: { width: 40, height: 30, channels: 3 } }).greyscale()));
    for (const bytes of [sixteen, grey]) {
      const image = await SOURCE_CODECS.tiff.decode(bytes.slice().buffer);
      expect([image.width, image.height, image.data.length]).toEqual([40, 30, 40 * 30 * 4]);
    }
  });

  it('big-endian ("MM")', async () => {
    const bytes = Uint8Array.from([...latin1('MM'), 0, 42, 0, 0, 0, 8, 0, 2, 1, 0, 0, 3, 0, 0, 0, 1, 0x01, 0xf4, 0, 0, 1, 1, 0, 4, 0, 0, 0, 1, 0, 0, 0x01, 0x2c, 0, 0, 0, 0]);
    expect(detectFormat(bytes)).toBe('tiff');
    expect(await readImageHeader('tiff', bytes)).toEqual({ size: { width: 500, height: 300 }, orientation: 1 });
  });

  it('a directory at the end of the file, after the pixels (as libtiff writes it), is found where the header points', async () => {
    const pixels = Array.from({ length: 5000 }, () => 7);
    const bytes = Uint8Array.from([...latin1('II'), 42, 0, ...u32le(8 + pixels.length), ...pixels, ...directory([[256, 640], [257, 480]], 0)]);
    expect(await readImageHeader('tiff', bytes)).toEqual({ size: { width: 640, height: 480 }, orientation: 1 });
  });

  it('counts pages, not reduced-resolution previews, and stops at a directory that points back', async () => {
    const first = 8;
    const preview = first + 2 + 3 * 12 + 4;
    const second = preview + 2 + 3 * 12 + 4;
    const bytes = Uint8Array.from([
      ...latin1('II'), 42, 0, ...u32le(first),
      ...directory([[256, 640], [257, 480], [254, 0]], preview),
      ...directory([[256, 160], [257, 120], [254, 1]], second),
      ...directory([[256, 640], [257, 480], [254, 0]], first),
    ]);
    expect(await readImageHeader('tiff', bytes)).toEqual({ size: { width: 640, height: 480 }, orientation: 1, pages: 2 });
    const page = await sharp({ create: { width: 20, height: 10, channels: 3, background: 'red' } }).png().toBuffer();
    const multiPage = new Uint8Array(await sharp([page, page, page], { join: { animated: true } }).tiff().toBuffer());
    expect(await readImageHeader('tiff', multiPage)).toMatchObject({ size: { width: 20, height: 10 }, pages: 3 });
    expect(await validateFile(new Blob([multiPage], { type: 'image/tiff' }), LIMIT)).toMatchObject({ isValid: true, pages: 3 });
  });

  it('gives its Orientation tag; UTIF gives the pixels as stored, for the pipeline to turn', async () => {
    const turned = Uint8Array.from([...latin1('II'), 42, 0, ...u32le(8), ...directory([[256, 640], [257, 480], [274, 6]], 0)]);
    expect(await readImageHeader('tiff', turned)).toEqual({ size: { width: 640, height: 480 }, orientation: 6 });
    const oriented = new Uint8Array(await sharp(rgb, { raw: { width: 40, height: 30, channels: 3 } }).withMetadata({ orientation: 6 }).tiff().toBuffer());
    expect(await readImageHeader('tiff', oriented)).toMatchObject({ orientation: 6 });
    const image = await SOURCE_CODECS.tiff.decode(oriented.slice().buffer);
    expect([image.width, image.height]).toEqual([40, 30]);
    expect(SOURCE_CODECS.tiff.decodesUpright).toBe(false);
  });

  it('a file cut before its directory has no size; a damaged one fails to decode rather than hang', async () => {
    const bytes = new Uint8Array(await sharpTiff({ compression: 'lzw' }));
    for (const cut of [3, 7, 12]) expect(await readImageHeader('tiff', bytes.subarray(0, cut))).toBeNull();
    const header = Uint8Array.from([...latin1('II'), 42, 0, ...u32le(8), ...directory([[256, 640], [257, 480]], 0)]);
    await expect(SOURCE_CODECS.tiff.decode(header.slice().buffer)).rejects.toThrow();
  });
});
