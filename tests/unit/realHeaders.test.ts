import { describe, expect, it } from 'vitest';
import type { ImageFormat } from '../../core/formats.ts';
import { blobSource } from '../../core/byte-source.ts';
import { CODECS } from '../../wasm/index.ts';
import { probeImage, readImageHeader } from '../../src/conversion/probe.ts';
import { box, ftyp, latin1, u16be, u24le, u32be } from './signatures.ts';

/**
 * The header readers on the layouts real cameras, phones and editors write, built here segment by segment: what
 * comes before a JPEG's frame header or a PNG's pixels, the WebP variants, and AVIF's item properties.
 */

const read = (format: ImageFormat, bytes: number[] | Uint8Array) => readImageHeader(format, Uint8Array.from(bytes));

// ---- JPEG ----

const segment = (marker: number, body: number[]) => [0xff, marker, ...u16be(body.length + 2), ...body];
const zeros = (length: number): number[] => Array.from({ length }, () => 0);
const filler = (length: number, seed: number) => Array.from({ length }, (_, i) => (i * 31 + seed) & 0x7f);

/** A big-endian TIFF with one IFD0 entry, Orientation. */
const tiffWithOrientation = (orientation: number) => [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
const exifApp1 = (orientation: number) => segment(0xe1, [...latin1('Exif\0\0'), ...tiffWithOrientation(orientation)]);
const xmpApp1 = (length: number) => segment(0xe1, [...latin1('http://ns.adobe.com/xap/1.0/\0'), ...filler(length, 1)]);
/** One piece of extended XMP, as Photoshop writes many (each up to 65,400 bytes) for a document's history. */
const extendedXmpApp1 = (index: number) => segment(0xe1, [...latin1('http://ns.adobe.com/xmp/extension/\0'), ...filler(65_400, index)]);
const iccApp2 = (index: number, count: number, length: number) => segment(0xe2, [...latin1('ICC_PROFILE\0'), index, count, ...filler(length, index)]);
/** Photoshop's APP13 with an image resource block holding a JPEG thumbnail. */
const photoshopApp13 = (thumbnailBytes: number) => segment(0xed, [...latin1('Photoshop 3.0\0'), ...latin1('8BIM'), 0x04, 0x0c, 0, 0, ...u32be(thumbnailBytes), ...filler(thumbnailBytes, 7)]);
const adobeApp14 = segment(0xee, [...latin1('Adobe'), 0, 100, 0x40, 0, 0, 0, 0, 1]);
const quantTable = segment(0xdb, [0, ...filler(64, 3)]);
const restartInterval = segment(0xdd, u16be(64));
const frameHeader = (marker: number, width: number, height: number) => segment(marker, [8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
const scanStart = [...segment(0xda, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0]), 0x12, 0x34, 0xff, 0x00, 0x56];
const jpeg = (...parts: number[][]) => [0xff, 0xd8, ...parts.flat(), ...scanStart, 0xff, 0xd9];

describe('JPEG headers as editors and cameras write them', () => {
  it("reads a photo editor's progressive JPEG whose frame header sits 7 MB in, behind a thumbnail and extended XMP", async () => {
    const extended = Array.from({ length: 110 }, (_, i) => extendedXmpApp1(i));
    const bytes = Uint8Array.from(jpeg(exifApp1(1), photoshopApp13(30_000), xmpApp1(2400), ...extended, adobeApp14, quantTable, frameHeader(0xc2, 3840, 2400)));
    expect(bytes.length).toBeGreaterThan(7_000_000);
    let bytesRead = 0;
    const blob = new Blob([bytes], { type: 'image/jpeg' });
    const counting = { size: bytes.length, read: (offset: number, length: number) => source.read(offset, length).then((b) => ((bytesRead += b.length), b)) };
    const source = blobSource(blob);
    expect(await readImageHeader('jpeg', counting)).toEqual({ size: { width: 3840, height: 2400 }, orientation: 1 });
    expect(await probeImage(blob)).toEqual({ format: 'jpeg', size: { width: 3840, height: 2400 }, orientation: 1 });
    // Segment headers, the EXIF segment and the frame header: not the 7 MB between them.
    expect(bytesRead).toBeLessThan(100_000);
  });

  it('reads a camera JPEG: EXIF with orientation, a multi-segment ICC profile, then baseline', async () => {
    for (const orientation of [1, 3, 6, 8] as const) {
      const bytes = jpeg(exifApp1(orientation), iccApp2(1, 3, 60_000), iccApp2(2, 3, 60_000), iccApp2(3, 3, 20_000), quantTable, frameHeader(0xc0, 4032, 3024));
      expect(await read('jpeg', bytes)).toEqual({ size: { width: 4032, height: 3024 }, orientation });
    }
  });

  it('takes the orientation from an EXIF segment that comes after XMP, and only from the first EXIF segment', async () => {
    expect(await read('jpeg', jpeg(xmpApp1(5000), exifApp1(6), exifApp1(1), frameHeader(0xc0, 64, 48)))).toEqual({ size: { width: 64, height: 48 }, orientation: 6 });
  });

  it('reads every start-of-frame kind: extended, lossless, arithmetic', async () => {
    for (const marker of [0xc1, 0xc3, 0xc9, 0xca]) expect((await read('jpeg', jpeg(quantTable, frameHeader(marker, 300, 200))))?.size).toEqual({ width: 300, height: 200 });
  });

  it('skips fill bytes before a marker, a restart interval, and stray bytes between segments', async () => {
    const bytes = jpeg(quantTable, [0xff, 0xff, 0xff], restartInterval, [0x00, 0x13], frameHeader(0xc0, 640, 480));
    expect((await read('jpeg', bytes))?.size).toEqual({ width: 640, height: 480 });
  });

  it('gives no size when the scan or the end comes before any frame header, or the height waits for a DNL', async () => {
    expect(await read('jpeg', [0xff, 0xd8, ...quantTable, ...scanStart, ...frameHeader(0xc0, 10, 10)])).toBeNull();
    expect(await read('jpeg', [0xff, 0xd8, ...quantTable, 0xff, 0xd9])).toBeNull();
    expect(await read('jpeg', jpeg(frameHeader(0xc0, 640, 0)))).toBeNull();
    expect(await read('jpeg', [0xff, 0xd8, ...segment(0xe1, []).slice(0, 2), 0, 1])).toBeNull();
  });

  it('does not take a DHT or arithmetic-table segment (C4, CC) for a frame header', async () => {
    const huffman = segment(0xc4, [0, ...filler(28, 5)]);
    const arithmetic = segment(0xcc, [0, 0x11]);
    expect((await read('jpeg', jpeg(huffman, arithmetic, frameHeader(0xc2, 1000, 750))))?.size).toEqual({ width: 1000, height: 750 });
  });
});

// ---- PNG ----

const pngChunk = (type: string, data: number[]) => [...u32be(data.length), ...latin1(type), ...data, 0, 0, 0, 0];
const ihdr = (width: number, height: number, depth: number, colour: number) => pngChunk('IHDR', [...u32be(width), ...u32be(height), depth, colour, 0, 0, 0]);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('PNG headers with the chunks editors write before the pixels', () => {
  it('reads 8-bit RGBA, 16-bit RGB, palette and grey images with iCCP, sRGB, gAMA, pHYs, text and eXIf chunks before IDAT', async () => {
    const before = [
      pngChunk('iCCP', [...latin1('ICC\0'), 0, ...filler(3000, 2)]),
      pngChunk('sRGB', [0]),
      pngChunk('gAMA', u32be(45455)),
      pngChunk('pHYs', [...u32be(2834), ...u32be(2834), 1]),
      pngChunk('tEXt', latin1('Software\0GIMP 2.10')),
      pngChunk('iTXt', latin1('XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta/>')),
      pngChunk('zTXt', [...latin1('Comment\0'), 0, 0x78, 0x9c, 3, 0, 0, 0, 0, 1]),
      pngChunk('eXIf', tiffWithOrientation(1)),
    ].flat();
    for (const [depth, colour] of [[8, 6], [16, 2], [8, 3], [1, 3], [16, 0]]) {
      const bytes = [...PNG_SIGNATURE, ...ihdr(3640, 2400, depth!, colour!), ...(colour === 3 ? pngChunk('PLTE', filler(48, 1)) : []), ...before, ...pngChunk('IDAT', [0x78, 0x9c]), ...pngChunk('IEND', [])];
      expect(await read('png', bytes)).toEqual({ size: { width: 3640, height: 2400 }, orientation: 1 });
    }
  });

  it('gives the orientation of an eXIf chunk before IDAT (ExifTool writes one), and none after it', async () => {
    for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const bytes = [...PNG_SIGNATURE, ...ihdr(640, 480, 8, 2), ...pngChunk('iCCP', filler(2000, 2)), ...pngChunk('eXIf', tiffWithOrientation(orientation)), ...pngChunk('IDAT', [0x78, 0x9c]), ...pngChunk('IEND', [])];
      expect(await read('png', bytes)).toEqual({ size: { width: 640, height: 480 }, orientation });
    }
    const late = [...PNG_SIGNATURE, ...ihdr(640, 480, 8, 2), ...pngChunk('IDAT', [0x78, 0x9c]), ...pngChunk('eXIf', tiffWithOrientation(6)), ...pngChunk('IEND', [])];
    expect(await read('png', late)).toEqual({ size: { width: 640, height: 480 }, orientation: 1 });
  });
});

// ---- WebP ----

const riff = (...chunks: number[][]) => {
  const body = chunks.flat();
  return [...latin1('RIFF'), ...u32le(4 + body.length), ...latin1('WEBP'), ...body];
};
const u32le = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
const webpChunk = (fourcc: string, data: number[]) => [...latin1(fourcc), ...u32le(data.length), ...data, ...(data.length % 2 ? [0] : [])];
const vp8x = (flags: number, width: number, height: number) => webpChunk('VP8X', [flags, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
const lossy = (width: number, height: number) => webpChunk('VP8 ', [0x50, 0x2a, 0x00, 0x9d, 0x01, 0x2a, width & 0xff, width >> 8, height & 0xff, height >> 8, ...filler(20, 4)]);
const lossless = (width: number, height: number, alpha: boolean) => {
  const bits = (width - 1) | ((height - 1) << 14) | ((alpha ? 1 : 0) << 28);
  return webpChunk('VP8L', [0x2f, ...u32le(bits), ...filler(20, 6)]);
};

describe('WebP headers: lossy, lossless, with alpha, animated, with metadata', () => {
  it('reads each', async () => {
    const cases: [string, number[], number, number][] = [
      ['lossy', riff(lossy(1920, 1080)), 1920, 1080],
      ['lossless', riff(lossless(800, 600, false)), 800, 600],
      ['lossless with alpha', riff(lossless(801, 601, true)), 801, 601],
      ['lossy with alpha', riff(vp8x(0x10, 1024, 768), webpChunk('ALPH', filler(40, 2)), lossy(1024, 768)), 1024, 768],
      ['animated', riff(vp8x(0x12, 500, 400), webpChunk('ANIM', [0, 0, 0, 0, 0, 0]), webpChunk('ANMF', filler(60, 3))), 500, 400],
      ['with ICC, EXIF and XMP', riff(vp8x(0x2c, 4000, 3000), webpChunk('ICCP', filler(3000, 1)), lossy(4000, 3000), webpChunk('EXIF', tiffWithOrientation(6)), webpChunk('XMP ', filler(900, 2))), 4000, 3000],
    ];
    for (const [name, bytes, width, height] of cases) expect((await read('webp', bytes))?.size, name).toEqual({ width, height });
  });

  it('gives the orientation of the EXIF chunk after the image data, walking the chunks by their headers, when VP8X says there is one', async () => {
    for (const orientation of [1, 3, 6, 8]) {
      const bytes = Uint8Array.from(riff(vp8x(0x08, 4000, 3000), lossy(4000, 3000), webpChunk('JUNK', filler(300_001, 3)), webpChunk('EXIF', tiffWithOrientation(orientation))));
      let bytesRead = 0;
      const blob = new Blob([bytes]);
      const source = blobSource(blob, 1024);
      const counting = { size: source.size, read: async (offset: number, length: number) => { const part = await source.read(offset, length); bytesRead += part.length; return part; } };
      expect(await readImageHeader('webp', counting)).toEqual({ size: { width: 4000, height: 3000 }, orientation });
      expect(bytesRead).toBeLessThan(10_000);
    }
    // An EXIF chunk VP8X does not announce is not looked for.
    expect(await read('webp', riff(vp8x(0x00, 64, 48), lossy(64, 48), webpChunk('EXIF', tiffWithOrientation(6))))).toEqual({ size: { width: 64, height: 48 }, orientation: 1 });
  });
});

// ---- AVIF ----

const fullBox = (type: string, version: number, flags: number, payload: number[]) => box(type, [version, ...u24le(flags).reverse(), ...payload]);
const ispe = (width: number, height: number) => fullBox('ispe', 0, 0, [...u32be(width), ...u32be(height)]);
const pixi = (depth: number) => fullBox('pixi', 0, 0, [3, depth, depth, depth]);
const irot = (angle: number) => box('irot', [angle]);
const imir = (axis: number) => box('imir', [axis]);
const auxC = fullBox('auxC', 0, 0, latin1('urn:mpeg:mpegB:cicp:systems:auxiliary:alpha\0'));
/** `ipma` version 0 with 7-bit indexes (flags 0) or 15-bit (flags 1). */
const ipma = (entries: [item: number, indexes: number[]][], wide = false) =>
  fullBox('ipma', 0, wide ? 1 : 0, [...u32be(entries.length), ...entries.flatMap(([item, indexes]) => [...u16be(item), indexes.length, ...indexes.flatMap((i) => (wide ? u16be(0x8000 | i) : [0x80 | i]))])]);
const infe = (item: number, type: string) => fullBox('infe', 2, 0, [...u16be(item), 0, 0, ...latin1(type), 0]);
const iinf = (...entries: number[][]) => fullBox('iinf', 0, 0, [...u16be(entries.length), ...entries.flat()]);
const pitm = (item: number) => fullBox('pitm', 0, 0, u16be(item));
const meta = (...children: number[][]) => fullBox('meta', 0, 0, [...fullBox('hdlr', 0, 0, [0, 0, 0, 0, ...latin1('pict'), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), ...children.flat()]);
const mdat = (length: number) => box('mdat', filler(length, 9));

describe('AVIF headers: the primary item, not the first size in the file', () => {
  it("reads the primary item's size when an alpha plane's or thumbnail's ispe comes first", async () => {
    const properties = box('ipco', [...ispe(160, 120), ...auxC, ...ispe(4000, 3000), ...pixi(10)]);
    const bytes = [
      ...ftyp('avif', ['mif1', 'miaf']),
      ...meta(pitm(2), iinf(infe(1, 'av01'), infe(2, 'av01')), box('iprp', [...properties, ...ipma([[1, [1, 2]], [2, [3, 4]]])])),
      ...mdat(500),
    ];
    expect(await read('avif', bytes)).toEqual({ size: { width: 4000, height: 3000 }, orientation: 1 });
  });

  it("reads a grid image's full size, not a tile's, with 15-bit property indexes", async () => {
    const properties = box('ipco', [...ispe(512, 512), ...ispe(2048, 1536)]);
    const tiles = Array.from({ length: 12 }, (_, i): [number, number[]] => [i + 1, [1]]);
    const bytes = [...ftyp('avif', ['mif1', 'miaf']), ...meta(pitm(13), box('iprp', [...properties, ...ipma([...tiles, [13, [2]]], true)])), ...mdat(100)];
    expect((await read('avif', bytes))?.size).toEqual({ width: 2048, height: 1536 });
  });

  it('gives irot (quarter turns anticlockwise) as an orientation: 1 → 8, 2 → 3, 3 → 6', async () => {
    for (const [angle, orientation] of [[0, 1], [1, 8], [2, 3], [3, 6]] as const) {
      const bytes = [...ftyp('avif', ['mif1']), ...meta(pitm(1), box('iprp', [...box('ipco', [...ispe(3840, 2400), ...irot(angle)]), ...ipma([[1, [1, 2]]])])), ...mdat(10)];
      expect(await read('avif', bytes)).toEqual({ size: { width: 3840, height: 2400 }, orientation });
    }
  });

  it('gives irot and imir together as one orientation, in the order the primary item lists them', async () => {
    const oriented = (...properties: number[][]) => [...ftyp('avif', ['mif1']), ...meta(pitm(1), box('iprp', [...box('ipco', [...ispe(3840, 2400), ...properties.flat()]), ...ipma([[1, properties.map((_, i) => i + 2).concat(1)]])])), ...mdat(10)];
    const cases: [number[][], number][] = [
      [[imir(1)], 2],
      [[imir(0)], 4],
      [[irot(1), imir(0)], 5],
      [[irot(3), imir(0)], 7],
      [[irot(3), imir(1)], 5],
      // Mirrored first, then turned: another picture than turned, then mirrored.
      [[imir(0), irot(3)], 5],
      [[imir(1), irot(3)], 7],
    ];
    for (const [properties, orientation] of cases) expect((await read('avif', oriented(...properties)))?.orientation, JSON.stringify(properties)).toBe(orientation);
  });

  it('finds a meta box that comes after a large mdat, reading only box headers on the way', async () => {
    const bigMdat = [...u32be(1), ...latin1('mdat'), ...u32be(0), ...u32be(16 + 2_000_000), ...zeros(2_000_000)];
    const bytes = Uint8Array.from([...ftyp('avif', ['mif1']), ...bigMdat, ...meta(pitm(1), box('iprp', [...box('ipco', ispe(1200, 800)), ...ipma([[1, [1]]])]))]);
    const blob = new Blob([bytes], { type: 'image/avif' });
    expect((await probeImage(blob))?.size).toEqual({ width: 1200, height: 800 });
  });

  it("reads an image sequence's track size when it has no meta box", async () => {
    const matrix = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0];
    const tkhd = fullBox('tkhd', 0, 3, [...zeros(20), ...zeros(16), ...matrix, ...u32be(640 << 16), ...u32be(360 << 16)]);
    const bytes = [...ftyp('avis', ['avif', 'msf1', 'miaf']), ...box('moov', [...fullBox('mvhd', 0, 0, filler(96, 1)), ...box('trak', tkhd)]), ...mdat(100)];
    expect((await read('avif', bytes))?.size).toEqual({ width: 640, height: 360 });
  });

  it('gives no size for a meta box that claims more bytes than the file has', async () => {
    const good = [...ftyp('avif', ['mif1']), ...meta(pitm(1), box('iprp', [...box('ipco', ispe(100, 100)), ...ipma([[1, [1]]])]))];
    const cut = good.slice(0, good.length - 4);
    expect(await read('avif', cut)).toBeNull();
  });

  it('tells whether an AVIF carries EXIF or XMP from its meta box, on a file too large to spread into one string', () => {
    const withExif = Uint8Array.from([...ftyp('avif', ['mif1']), ...meta(pitm(1), iinf(infe(1, 'av01'), infe(2, 'Exif'))), ...mdat(1_500_000)]);
    const without = Uint8Array.from([...ftyp('avif', ['mif1']), ...meta(pitm(1), iinf(infe(1, 'av01'))), ...box('mdat', [...latin1('Exif'), ...filler(1_500_000, 2)])]);
    expect(CODECS.avif.metadata.hasMetadata(withExif)).toBe(true);
    // "Exif" in the coded pixels is not metadata.
    expect(CODECS.avif.metadata.hasMetadata(without)).toBe(false);
  });
});
