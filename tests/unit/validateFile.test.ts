import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, VALIDATION_MESSAGES, validateFile } from '../../src/features/intake/validateFile.ts';
import { formatFromMimeType } from '../../core/formats.ts';
import { HEADS, blobOf, headerOf } from './signatures.ts';

/** 100 megapixels: the limit on a device of 4 GB or more. */
const LIMIT = 100_000_000;
const check = (file: Blob) => validateFile(file, LIMIT);

describe('validateFile applies the five rules in the spec order', () => {
  it.each([
    ['jpeg', 'image/jpeg'],
    ['jpeg', 'image/jpg'],
    ['png', 'image/png'],
    ['webp', 'image/webp'],
    ['avif', 'image/avif'],
    ['heic', 'image/heic'],
    ['heic', 'image/heif'],
    ['jxl', 'image/jxl'],
    ['tiff', 'image/tiff'],
    ['gif', 'image/gif'],
    ['bmp', 'image/bmp'],
    ['bmp', 'image/x-ms-bmp'],
  ] as const)('accepts a %s file declared as %s', async (format, type) => {
    expect(await check(blobOf(HEADS[format], 2048, type))).toEqual({ isValid: true, format, size: { width: 400, height: 300 }, animated: false, pages: 1 });
  });

  it('1. over 25 MB: "File too large. Maximum 25MB per file."', async () => {
    expect(await check(blobOf(HEADS.png, MAX_FILE_BYTES + 1, 'image/png'))).toEqual({
      isValid: false,
      message: 'File too large. Maximum 25MB per file.',
    });
  });

  it('exactly 25 MB is allowed', async () => {
    expect((await check(blobOf(HEADS.png, MAX_FILE_BYTES, 'image/png'))).isValid).toBe(true);
  });

  it('2. a type not starting with image/: "Not an image file."', async () => {
    expect(await check(blobOf(HEADS.png, 2048, 'text/plain'))).toEqual({ isValid: false, message: VALIDATION_MESSAGES.notImage });
    expect(await check(blobOf(HEADS.png, 2048, ''))).toEqual({ isValid: false, message: 'Not an image file.' });
  });

  it('3. an image type we do not accept: the spec\'s "Unsupported format. Use …" naming every format taken in', async () => {
    for (const type of ['image/svg+xml', 'image/jp2', 'image/x-icon']) {
      expect(await check(blobOf(HEADS.png, 2048, type))).toEqual({
        isValid: false,
        message: 'Unsupported format. Use JPG, PNG, WebP, AVIF, JPEG XL, HEIC, TIFF, GIF, or BMP.',
      });
    }
  });

  it('4. leading bytes that do not match the declared type: "Invalid file format. File may be corrupted or malicious."', async () => {
    const text = [...'just some text pretending to be a picture'].map((c) => c.charCodeAt(0));
    expect(await check(blobOf(text, 2048, 'image/png'))).toEqual({
      isValid: false,
      message: 'Invalid file format. File may be corrupted or malicious.',
    });
    expect((await check(blobOf(HEADS.jpeg, 2048, 'image/png'))).isValid).toBe(false);
    expect((await check(blobOf(HEADS.webp, 2048, 'image/avif'))).isValid).toBe(false);
  });

  it('5. under 100 bytes with a right signature: "File too small to be a valid image."', async () => {
    expect(await check(blobOf(HEADS.png, 99, 'image/png'))).toEqual({
      isValid: false,
      message: 'File too small to be a valid image.',
    });
    expect((await check(blobOf(HEADS.png, 100, 'image/png'))).isValid).toBe(true);
  });

  it('the first failing rule wins: too large and mismatched reads "too large"', async () => {
    const text = [...'not an image at all'].map((c) => c.charCodeAt(0));
    expect(await check(blobOf(text, MAX_FILE_BYTES + 1, 'image/png'))).toEqual({ isValid: false, message: VALIDATION_MESSAGES.tooLarge });
  });

  it('the first failing rule wins: too large and not an image reads "too large"', async () => {
    expect(await check(blobOf([], MAX_FILE_BYTES + 1, 'video/mp4'))).toEqual({ isValid: false, message: VALIDATION_MESSAGES.tooLarge });
  });

  it('the first failing rule wins: tiny and mismatched reads "invalid format" (rule 4 before 5)', async () => {
    expect(await check(blobOf([1, 2, 3], 10, 'image/jpeg'))).toEqual({ isValid: false, message: VALIDATION_MESSAGES.mismatch });
  });

  it('the first failing rule wins: tiny SVG reads "unsupported" (rule 3 before 5)', async () => {
    expect(await check(blobOf([0x3c], 10, 'image/svg+xml'))).toEqual({ isValid: false, message: VALIDATION_MESSAGES.unsupported });
  });
});

describe('after the spec\'s rules, the header must give a size within the pixel limit', () => {
  it.each(['jpeg', 'png', 'webp', 'avif'] as const)('refuses a %s that says it is 30000 × 30000 with its size and the limit', async (format) => {
    expect(await check(blobOf(headerOf(format, 30000, 30000), 2048, `image/${format}`))).toEqual({
      isValid: false,
      message: 'Image too large: 900 megapixels (limit 100)',
    });
  });

  it('accepts exactly the limit and refuses one pixel more, saying by how much', async () => {
    expect((await check(blobOf(headerOf('png', 10_000, 10_000), 2048, 'image/png'))).isValid).toBe(true);
    expect(await check(blobOf(headerOf('png', 10_001, 10_000), 2048, 'image/png'))).toEqual({
      isValid: false,
      message: 'Image too large: 100.1 megapixels (limit 100)',
    });
  });

  it('follows the limit it is given (a 2 GB phone: 50 megapixels)', async () => {
    const photo48mp = blobOf(headerOf('jpeg', 8000, 6000), 2048, 'image/jpeg');
    expect((await validateFile(photo48mp, 50_000_000)).isValid).toBe(true);
    expect(await validateFile(blobOf(headerOf('jpeg', 9000, 6000), 2048, 'image/jpeg'), 50_000_000)).toEqual({
      isValid: false,
      message: 'Image too large: 54 megapixels (limit 50)',
    });
  });

  it('refuses a right signature followed by a header without dimensions as corrupt', async () => {
    const signatureOnly = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 24 }, (_, i) => (i * 37) & 0xff)];
    expect(await check(blobOf(signatureOnly, 2048, 'image/png'))).toEqual({ isValid: false, message: VALIDATION_MESSAGES.mismatch });
    expect(await check(blobOf(headerOf('jpeg', 400, 300).slice(0, 22), 2048, 'image/jpeg'))).toEqual({ isValid: false, message: VALIDATION_MESSAGES.mismatch });
  });
});

describe('formatFromMimeType', () => {
  it('maps accepted types, case-insensitively, and nothing else', () => {
    expect(formatFromMimeType('image/JPEG')).toBe('jpeg');
    expect(formatFromMimeType('image/jpg')).toBe('jpeg');
    expect(formatFromMimeType('image/webp')).toBe('webp');
    expect(formatFromMimeType('image/svg+xml')).toBeNull();
    expect(formatFromMimeType('image/')).toBeNull();
    expect(formatFromMimeType('application/png')).toBeNull();
  });
});
