import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, validateFile } from '../../src/features/intake/validateFile.ts';
import { detectFormat, SOURCE_FORMAT_IDS, type SourceFormat } from '../../core/formats.ts';
import { probeImage, readImageHeader } from '../../src/conversion/probe.ts';

const readImageSize = async (f: SourceFormat, bytes: Uint8Array) => (await readImageHeader(f, bytes))?.size ?? null;
import { headerOf } from './signatures.ts';

/**
 * Property-based: the header parsers and the intake rules against random, generated, truncated and mutated bytes.
 * Whatever the bytes, nothing throws, and no format or size is reported that the bytes do not have.
 */

const format = fc.constantFrom(...SOURCE_FORMAT_IDS);
/** Within every format's range (a lossy WebP tops out at 16383; this header is VP8X, but keep to the common range). */
const dimension = fc.integer({ min: 1, max: 16383 });
const MIME: Record<SourceFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif', heic: 'image/heic', jxl: 'image/jxl', tiff: 'image/tiff', gif: 'image/gif', bmp: 'image/bmp' };

/** A generated header, padded with random bytes as the rest of a file would be. */
const headerWithSize = fc.record({
  format,
  width: dimension,
  height: dimension,
  tail: fc.uint8Array({ maxLength: 256 }),
});

const bytesOf = (head: number[], tail: Uint8Array) => Uint8Array.from([...head, ...tail]);

describe('readImageHeader on any bytes', () => {
  it('never throws and reports only positive whole dimensions, for random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(format, fc.uint8Array({ maxLength: 2048 }), async (f, bytes) => {
        const size = await readImageSize(f, bytes);
        if (size) {
          expect(Number.isInteger(size.width) && size.width > 0).toBe(true);
          expect(Number.isInteger(size.height) && size.height > 0).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back exactly the size a header was written with', async () => {
    await fc.assert(
      fc.asyncProperty(headerWithSize, async ({ format: f, width, height, tail }) => {
        expect(await readImageSize(f, bytesOf(headerOf(f, width, height), tail))).toEqual({ width, height });
      }),
    );
  });

  it('gives the written size or nothing for any prefix of a header (a truncated file)', async () => {
    await fc.assert(
      fc.asyncProperty(headerWithSize, fc.nat(), async ({ format: f, width, height }, cut) => {
        const head = headerOf(f, width, height);
        const size = await readImageSize(f, Uint8Array.from(head.slice(0, cut % (head.length + 1))));
        if (size) expect(size).toEqual({ width, height });
      }),
    );
  });

  it('never throws on a header with bytes overwritten at random (a damaged file)', async () => {
    await fc.assert(
      fc.asyncProperty(headerWithSize, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), async ({ format: f, width, height, tail }, edits) => {
        const bytes = bytesOf(headerOf(f, width, height), tail);
        for (const [at, value] of edits) bytes[at % bytes.length] = value;
        const size = await readImageSize(f, bytes);
        if (size) expect(size.width > 0 && size.height > 0).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('probeImage on any blob', () => {
  it('reports a format only when the signature says it, and never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 512 }), headerWithSize.map(({ format: f, width, height, tail }) => bytesOf(headerOf(f, width, height), tail))), async (bytes) => {
        const header = await probeImage(new Blob([bytes]));
        expect(header?.format ?? null).toBe(detectFormat(bytes));
      }),
      { numRuns: 500 },
    );
  });
});

describe('validateFile on any file', () => {
  const declared = fc.constantFrom('image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif', 'image/bmp', 'image/heic', 'text/plain', '');
  const messages = new Set<string>(Object.values(VALIDATION_MESSAGES));

  it('always answers, and accepts only a file whose signature and readable size match what it declares', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 1024 }), declared, async (bytes, type) => {
        const result = await validateFile(new Blob([bytes], { type }), 100_000_000);
        if (result.isValid) {
          expect(detectFormat(bytes)).toBe(result.format);
          expect(await readImageSize(result.format, bytes)).toEqual(result.size);
        } else {
          expect(messages.has(result.message) || result.message.startsWith('Image too large: ')).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('accepts a well-formed header exactly when its pixels are within the limit', async () => {
    await fc.assert(
      fc.asyncProperty(headerWithSize, fc.integer({ min: 1, max: 300_000_000 }), async ({ format: f, width, height, tail }, limit) => {
        const bytes = bytesOf(headerOf(f, width, height), new Uint8Array(Math.max(0, 100 - tail.length)).fill(0));
        const result = await validateFile(new Blob([bytes, tail], { type: MIME[f] }), limit);
        expect(result.isValid).toBe(width * height <= limit);
        if (!result.isValid) expect(result.message).toMatch(/^Image too large: [\d.]+ megapixels \(limit [\d.]+\)$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('EXIF orientation from a JPEG header', () => {
  it('gives the EXIF orientation, 1–8', async () => {
    const withOrientation = (orientation: number) => {
      // APP1 "Exif\0\0", big-endian TIFF, one IFD0 entry: Orientation (274), SHORT, count 1.
      const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
      const app1 = [0xff, 0xe1, 0, 2 + 6 + tiff.length, ...[...'Exif'].map((c) => c.charCodeAt(0)), 0, 0, ...tiff];
      const jpeg = headerOf('jpeg', 400, 300);
      return Uint8Array.from([...jpeg.slice(0, 2), ...app1, ...jpeg.slice(2)]);
    };
    for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) expect(await readImageHeader('jpeg', withOrientation(orientation))).toEqual({ size: { width: 400, height: 300 }, orientation });
    expect(await readImageHeader('jpeg', withOrientation(9))).toEqual({ size: { width: 400, height: 300 }, orientation: 1 });
  });
});
