import { describe, expect, it } from 'vitest';
import { FORMATS, IMAGE_FORMATS, SOURCE_FORMATS, SOURCE_FORMAT_IDS, detectFormat, formatFromMimeType, sourceFormatInfo } from '../../core/formats.ts';
import { CODECS, SOURCE_CODECS } from '../../wasm/index.ts';
import { HEADS } from './signatures.ts';

describe('the format registry', () => {
  it('has one entry per format, keyed by its own id, with a distinct extension and MIME type', () => {
    expect(Object.keys(FORMATS).sort()).toEqual([...IMAGE_FORMATS].sort());
    for (const format of IMAGE_FORMATS) expect(FORMATS[format].id).toBe(format);
    expect(new Set(IMAGE_FORMATS.map((f) => FORMATS[f].extension)).size).toBe(IMAGE_FORMATS.length);
    expect(new Set(IMAGE_FORMATS.map((f) => FORMATS[f].mimeType)).size).toBe(IMAGE_FORMATS.length);
  });

  it('every output format is a source format, and the sources only are not outputs', () => {
    expect(SOURCE_FORMAT_IDS.filter((format) => format in FORMATS)).toEqual([...IMAGE_FORMATS]);
    expect(SOURCE_FORMAT_IDS.filter((format) => !(format in FORMATS))).toEqual(['heic', 'tiff', 'gif', 'bmp']);
    for (const format of SOURCE_FORMAT_IDS) expect(SOURCE_FORMATS[format].id).toBe(format);
    expect(new Set(SOURCE_FORMAT_IDS.map((f) => SOURCE_FORMATS[f].mimeType)).size).toBe(SOURCE_FORMAT_IDS.length);
  });

  it('each MIME type is accepted at intake as its own format', () => {
    for (const format of SOURCE_FORMAT_IDS) expect(formatFromMimeType(SOURCE_FORMATS[format].mimeType)).toBe(format);
  });

  it("each format's signature is recognised as that format and no other", () => {
    for (const format of SOURCE_FORMAT_IDS) {
      const head = new Uint8Array(HEADS[format]);
      expect(detectFormat(head)).toBe(format);
      expect(SOURCE_FORMAT_IDS.filter((other) => sourceFormatInfo(other).matches(head))).toEqual([format]);
    }
  });

  it('"BM" alone is not a BMP: its DIB header must have a size a BMP has', () => {
    const text = new Uint8Array([...'BMW owners club newsletter'].map((c) => c.charCodeAt(0)));
    expect(detectFormat(text)).toBeNull();
  });

  it('a format gets EXIF written exactly when the metadata stage has a writer for its container', () => {
    for (const format of IMAGE_FORMATS) expect(FORMATS[format].exif).toBe(CODECS[format].metadata.writeExif !== undefined);
  });

  it('every registry entry has its codec folder, which the workers find by themselves', () => {
    for (const format of IMAGE_FORMATS) expect(CODECS[format].format).toBe(FORMATS[format]);
    for (const format of SOURCE_FORMAT_IDS) expect(SOURCE_CODECS[format].format).toBe(SOURCE_FORMATS[format]);
  });

  it('the output extension of JPEG is jpg, as the spec names output files', () => {
    expect(FORMATS.jpeg.extension).toBe('jpg');
  });
});

describe('what "Optimised compression" runs (chosen from npm run bench:encoders; docs/decisions/encoder-settings.md)', () => {
  it('JPEG: jpegli, 4:2:0, progressive, at the quality its map gives for the slider', () => {
    expect(FORMATS.jpeg.optimisedOptions).toEqual({ subsampling: '420', progressiveLevel: 2 });
  });

  it('WebP: libwebp at method 5, which saves what method 6 does in about half its time', () => {
    expect(FORMATS.webp.optimisedOptions).toEqual({ method: 5 });
  });

  it('AVIF: libavif at speed 8, within 1.5× native avifenc at speed 6 for the same bytes', () => {
    expect(FORMATS.avif.optimisedOptions).toEqual({ speed: 8 });
  });

  it('PNG: oxipng at level 2', () => {
    expect(FORMATS.png.optimisedOptions).toEqual({ level: 2, interlace: false, optimiseAlpha: true });
  });
});
