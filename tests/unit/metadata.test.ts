import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { exifOrientation, withUprightOrientation } from '../../core/exif.ts';
import type { ImageFormat } from '../../core/formats.ts';
import { CODECS } from '../../wasm/index.ts';
import { crc32 } from '../../core/bytes.ts';

const readExif = (bytes: Uint8Array, format: ImageFormat) => CODECS[format].metadata.readExif(bytes);
const carriesMetadata = (bytes: Uint8Array, format: ImageFormat) => CODECS[format].metadata.hasMetadata(bytes);
const writeExif = (encoded: Uint8Array, format: ImageFormat, tiff: Uint8Array, size: { width: number; height: number }) =>
  CODECS[format].metadata.writeExif?.(encoded, tiff, size) ?? encoded;

const pixels = () => sharp({ create: { width: 32, height: 24, channels: 3, background: '#4a7bd0' } });
let cameraTiff: Uint8Array;
let orientedTiff: Uint8Array;

/** The EXIF of a JPEG that libvips wrote with some; fails the test set-up if it cannot be read back. */
function exifOf(jpeg: Buffer): Uint8Array {
  const tiff = readExif(new Uint8Array(jpeg), 'jpeg');
  if (!tiff) throw new Error('no EXIF found in a JPEG written with EXIF');
  return tiff;
}

beforeAll(async () => {
  cameraTiff = exifOf(await pixels().jpeg().withExif({ IFD0: { Make: 'PixelTestCam', Model: 'Model X100' } }).toBuffer());
  orientedTiff = exifOf(await pixels().jpeg().withMetadata({ orientation: 6 }).toBuffer());
});

async function roundTrip(encoded: Buffer, format: 'jpeg' | 'png' | 'webp', tiff: Uint8Array) {
  const written = Buffer.from(writeExif(new Uint8Array(encoded), format, tiff, { width: 32, height: 24 }));
  const metadata = await sharp(written).metadata();
  const pixelsBack = await sharp(written).raw().toBuffer({ resolveWithObject: true });
  return { written, metadata, pixelsBack };
}

describe('reading EXIF', () => {
  it('finds the TIFF payload in a JPEG and reads Orientation', () => {
    expect(String.fromCharCode(cameraTiff[0]!, cameraTiff[1]!)).toMatch(/II|MM/);
    expect(Buffer.from(cameraTiff).toString('latin1')).toContain('PixelTestCam');
    expect(exifOrientation(cameraTiff)).toBe(1);
    expect(exifOrientation(orientedTiff)).toBe(6);
  });

  it('returns null for files without EXIF', async () => {
    expect(readExif(new Uint8Array(await pixels().jpeg().toBuffer()), 'jpeg')).toBeNull();
    expect(readExif(new Uint8Array(await pixels().png().toBuffer()), 'png')).toBeNull();
    expect(readExif(new Uint8Array(await pixels().webp().toBuffer()), 'webp')).toBeNull();
  });

  it('sets Orientation to 1 without touching anything else', () => {
    const upright = withUprightOrientation(orientedTiff);
    expect(exifOrientation(upright)).toBe(1);
    expect(upright.length).toBe(orientedTiff.length);
    expect(upright.filter((byte, i) => byte !== orientedTiff[i]).length).toBe(1);
    expect(exifOrientation(orientedTiff)).toBe(6);
  });
});

describe('writing EXIF into each container, parsed back by libvips', () => {
  it('JPEG: an APP1 segment', async () => {
    const { metadata, written } = await roundTrip(await pixels().jpeg().toBuffer(), 'jpeg', cameraTiff);
    expect(metadata.exif?.toString('latin1')).toContain('PixelTestCam');
    expect(readExif(new Uint8Array(written), 'jpeg')).toEqual(cameraTiff);
  });

  it('PNG: an eXIf chunk with a valid CRC, before IDAT', async () => {
    const { metadata, written, pixelsBack } = await roundTrip(await pixels().png().toBuffer(), 'png', cameraTiff);
    expect(metadata.exif?.toString('latin1')).toContain('Model X100');
    expect(pixelsBack.info.width).toBe(32);
    expect(written.indexOf('eXIf')).toBeLessThan(written.indexOf('IDAT'));
    expect(readExif(new Uint8Array(written), 'png')).toEqual(cameraTiff);
  });

  it.each([
    ['lossy (VP8)', () => pixels().webp({ quality: 80 })],
    ['lossless (VP8L)', () => pixels().webp({ lossless: true })],
    ['with alpha (VP8X)', () => pixels().ensureAlpha(0.5).webp({ quality: 80 })],
  ])('WebP %s: an EXIF chunk and the VP8X flag', async (kind, make) => {
    const { metadata, written, pixelsBack } = await roundTrip(await make().toBuffer(), 'webp', cameraTiff);
    expect(metadata.exif?.toString('latin1')).toContain('PixelTestCam');
    expect([pixelsBack.info.width, pixelsBack.info.height]).toEqual([32, 24]);
    expect(written.readUInt32LE(4)).toBe(written.length - 8);
    expect(readExif(new Uint8Array(written), 'webp')).toEqual(cameraTiff);
    // Whether it stores its pixels exactly is read past the VP8X header and the EXIF written before it.
    expect(CODECS.webp.metadata.isLossless?.(new Uint8Array(written))).toBe(kind.startsWith('lossless'));
  });

  it('AVIF is returned unchanged (the encoder cannot carry EXIF)', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(writeExif(bytes, 'avif', cameraTiff, { width: 1, height: 1 })).toBe(bytes);
  });
});

describe('crc32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});

describe('carriesMetadata: whether "Strip metadata" would remove anything', () => {
  const bytes = (buffer: Buffer) => new Uint8Array(buffer);

  it('finds EXIF in each container libvips writes, and nothing in a plain file', async () => {
    for (const format of ['jpeg', 'png', 'webp', 'avif'] as const) {
      const plain = await pixels().toFormat(format).toBuffer();
      const tagged = await pixels().withExif({ IFD0: { Make: 'PixelTestCam' } }).toFormat(format).toBuffer();
      expect([format, carriesMetadata(bytes(plain), format)]).toEqual([format, false]);
      expect([format, carriesMetadata(bytes(tagged), format)]).toEqual([format, true]);
    }
  });

  it('counts a PNG text chunk and a JPEG comment as metadata', async () => {
    const png = bytes(await pixels().png().toBuffer());
    const text = new Uint8Array([0, 0, 0, 4, ...[...'tEXt'].map((c) => c.charCodeAt(0)), 0x61, 0, 0x62, 0x63, 0, 0, 0, 0]);
    const withText = new Uint8Array([...png.subarray(0, 33), ...text, ...png.subarray(33)]);
    expect(carriesMetadata(withText, 'png')).toBe(true);
    const jpeg = bytes(await pixels().jpeg().toBuffer());
    const comment = [0xff, 0xfe, 0, 5, 0x68, 0x69, 0x21];
    expect(carriesMetadata(new Uint8Array([...jpeg.subarray(0, 2), ...comment, ...jpeg.subarray(2)]), 'jpeg')).toBe(true);
  });
});
