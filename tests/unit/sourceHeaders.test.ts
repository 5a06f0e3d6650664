import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../core/formats';
import { probeImage, readImageHeader } from '../../src/conversion/probe';
import { validateFile } from '../../src/features/intake/validateFile';
import { bmpOf, photoPixels } from '../fixtures/make-fixtures';
import { latin1, u16le, u32le } from './signatures';

/** The sources only (GIF, BMP): their header readers on the layouts files have, built here. */

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
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 33, height: 17 }, turned: false });
  });

  it('stored top-down: a negative height is the same size', async () => {
    const bytes = bmpWithHeader([...u32le(40), ...i32le(640), ...i32le(-480), ...u16le(1), ...u16le(32), ...u32le(3), ...Array.from({ length: 20 }, () => 0)]);
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 640, height: 480 }, turned: false });
  });

  it('a V5 header (124 bytes: colour space, alpha mask), as 32-bit exports with transparency have', async () => {
    const bytes = bmpWithHeader([...u32le(124), ...i32le(1920), ...i32le(1080), ...u16le(1), ...u16le(32), ...u32le(3), ...Array.from({ length: 124 - 20 }, () => 0)]);
    expect(detectFormat(bytes)).toBe('bmp');
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 1920, height: 1080 }, turned: false });
  });

  it('an OS/2 1.x header (12 bytes), whose width and height are 16-bit', async () => {
    const bytes = bmpWithHeader([...u32le(12), ...u16le(300), ...u16le(200), ...u16le(1), ...u16le(24)]);
    expect(detectFormat(bytes)).toBe('bmp');
    expect(await readImageHeader('bmp', bytes)).toEqual({ size: { width: 300, height: 200 }, turned: false });
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
    expect(await readImageHeader('gif', bytes)).toEqual({ size: { width: 48, height: 36 }, turned: false, animated: false });
  });

  it('an animated GIF from a real encoder (a looping extension, three frames): animated', async () => {
    const frame = (colour: string) => sharp({ create: { width: 20, height: 10, channels: 3, background: colour } }).png().toBuffer();
    const bytes = new Uint8Array(await sharp(await Promise.all(['red', 'lime', 'blue'].map(frame)), { join: { animated: true } }).gif({ delay: 100 }).toBuffer());
    expect(await readImageHeader('gif', bytes)).toEqual({ size: { width: 20, height: 10 }, turned: false, animated: true });
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
