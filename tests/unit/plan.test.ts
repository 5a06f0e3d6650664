import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ConversionSettings } from '../../core/contract.ts';
import { encoderHeapBytes } from '../../core/format.ts';
import { FORMATS, SOURCE_FORMATS } from '../../core/formats.ts';
import { chromiumCanvas, webkitCanvas } from './support/canvas.ts';
import { planJob, RESIZER_HEAP_BYTES, SAMPLE_PIXELS } from '../../core/plan.ts';
import { planFor } from '../../src/conversion/bridge.ts';
import { validateFile } from '../../src/features/intake/validateFile.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';

const settings = (changes: Partial<ConversionSettings>): ConversionSettings => ({ ...DEFAULT_SETTINGS, ...changes });

/** A File that counts the reads a header reader makes (each is a slice of it). */
class CountingFile extends File {
  partReads = 0;
  override slice(start?: number, end?: number, type?: string): Blob {
    this.partReads++;
    return super.slice(start, end, type);
  }
}

describe("a job's plan", () => {
  it('is made on the source as shown: a turned 4000 × 3000 photo resized to 1500 wide is 1500 × 2000', () => {
    const plan = planJob({ format: 'jpeg', size: { width: 4000, height: 3000 }, orientation: 6 }, settings({ resizeWidth: 1500 }), chromiumCanvas);
    expect(plan.shown).toEqual({ width: 3000, height: 4000 });
    expect(plan.geometry).toMatchObject({ width: 1500, height: 2000 });
  });

  it("with the browser's encoder, costs the decoded bytes of the larger of source and output, and the encoder's copy of the output", () => {
    const source = { format: 'png', size: { width: 1000, height: 500 }, orientation: 1 } as const;
    const browser = { enableCompression: false } as const;
    expect(planJob(source, settings(browser), chromiumCanvas).cost).toBe(1000 * 500 * 4 * 2);
    expect(planJob(source, settings(browser), chromiumCanvas).sampleCost).toBe(1000 * 500 * 4 * 2);
  });

  it('a HEIC, JPEG XL or TIFF also costs what its stand-in decoder holds (libheif, libjxl, UTIF); a GIF, which every engine decodes, does not', () => {
    const browser = settings({ enableCompression: false });
    const size = { width: 4000, height: 3000 };
    const jpeg = planJob({ format: 'jpeg', size, orientation: 1 }, browser, chromiumCanvas).cost;
    expect(planJob({ format: 'heic', size, orientation: 1 }, browser, chromiumCanvas).cost).toBe(jpeg + 4000 * 3000 * SOURCE_FORMATS.heic.decoderBytesPerPixel);
    expect(planJob({ format: 'tiff', size, orientation: 1 }, browser, chromiumCanvas).sampleCost).toBe(planJob({ format: 'jpeg', size, orientation: 1 }, browser, chromiumCanvas).sampleCost + 4000 * 3000 * SOURCE_FORMATS.tiff.decoderBytesPerPixel);
    expect(planJob({ format: 'gif', size, orientation: 1 }, browser, chromiumCanvas).cost).toBe(jpeg);
  });

  it("adds the resizer's heap when the output is resampled, for the crop it is handed and the output it makes", () => {
    const source = { format: 'png', size: { width: 1000, height: 500 }, orientation: 1 } as const;
    const browser = { enableCompression: false } as const;
    const { perSourcePixel, perOutputPixel } = RESIZER_HEAP_BYTES;
    expect(planJob(source, settings({ ...browser, resizeWidth: 4000 }), chromiumCanvas).cost).toBe(4000 * 2000 * (4 * 2 + perOutputPixel) + 1000 * 500 * perSourcePixel);
    expect(planJob(source, settings({ ...browser, resizeWidth: 500 }), chromiumCanvas).cost).toBe(1000 * 500 * (4 + perSourcePixel) + 500 * 250 * (4 + perOutputPixel));
    // The estimate's sample is cut from the resampled output: the resizer runs on the whole image.
    expect(planJob(source, settings({ ...browser, resizeWidth: 500 }), chromiumCanvas).sampleCost).toBe(1000 * 500 * (4 + perSourcePixel) + 500 * 250 * (4 + perOutputPixel));
    // A crop to a ratio at the source's own scale resamples nothing.
    expect(planJob(source, settings({ ...browser, aspectRatio: '1:1' }), chromiumCanvas).cost).toBe(1000 * 500 * 4 + 500 * 500 * 4);
  });

  it("with a WASM encoder, adds the heap it grows to for the output's pixels (a sample's: at most a megapixel), and the decoded output its look is judged on", () => {
    const source = { format: 'jpeg', size: { width: 4000, height: 3000 }, orientation: 1 } as const;
    const jpegli = FORMATS.jpeg.encoderHeapBytesPerPixel + 4;
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: true }), chromiumCanvas).cost).toBe(4000 * 3000 * (4 + jpegli));
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: true }), chromiumCanvas).sampleCost).toBe(4000 * 3000 * 4 + SAMPLE_PIXELS * jpegli);
    // A smaller output: the encoder's heap follows the pixels encoded, the decoded bytes and the resizer's the source.
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: true, resizeWidth: 2000 }), chromiumCanvas).cost).toBe(
      4000 * 3000 * (4 + RESIZER_HEAP_BYTES.perSourcePixel) + 2000 * 1500 * (jpegli + RESIZER_HEAP_BYTES.perOutputPixel),
    );
    // AVIF has no browser encoder: its heap counts with compression off too.
    expect(planJob(source, settings({ outputFormat: 'avif', enableCompression: false }), chromiumCanvas).cost).toBe(4000 * 3000 * (4 + FORMATS.avif.encoderHeapBytesPerPixel + 4));
    // A lossless output is not judged; a target size's is not either.
    expect(planJob(source, settings({ outputFormat: 'png', enableCompression: true }), chromiumCanvas).cost).toBe(4000 * 3000 * (4 + FORMATS.png.encoderHeapBytesPerPixel));
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: true, enableTargetSize: true, targetFileSize: 300 }), chromiumCanvas).cost).toBe(4000 * 3000 * (4 + jpegli - 4));
  });

  it("counts libjxl's heap as it streams: by the pixel up to one DC group (2048 × 2048), then little more a pixel", () => {
    const { encoderHeapBytesPerPixel: perPixel, encoderHeapStreaming } = FORMATS.jxl;
    const group = encoderHeapStreaming!.pixels;
    expect(encoderHeapBytes(FORMATS.jxl, 2000 * 1500)).toBe(2000 * 1500 * perPixel);
    expect(encoderHeapBytes(FORMATS.jxl, group)).toBe(group * perPixel);
    expect(encoderHeapBytes(FORMATS.jxl, 8000 * 6000)).toBe(group * perPixel + (8000 * 6000 - group) * encoderHeapStreaming!.bytesPerPixelBeyond);
    // A 12 MP photo to JPEG XL, judged: the decoded source, the heap as it streams, the decoded output.
    const source = { format: 'jpeg', size: { width: 4000, height: 3000 }, orientation: 1 } as const;
    expect(planJob(source, settings({ outputFormat: 'jxl', enableCompression: true }), chromiumCanvas).cost).toBe(4000 * 3000 * 8 + encoderHeapBytes(FORMATS.jxl, 4000 * 3000));
    // Formats that do not stream grow by the pixel throughout.
    expect(encoderHeapBytes(FORMATS.avif, 8000 * 6000)).toBe(8000 * 6000 * FORMATS.avif.encoderHeapBytesPerPixel);
  });

  it('with Smart compression, adds the image at half size its search encodes', () => {
    const source = { format: 'jpeg', size: { width: 4000, height: 3000 }, orientation: 1 } as const;
    const fixed = planJob(source, settings({ outputFormat: 'webp' }), chromiumCanvas).cost;
    expect(planJob(source, settings({ outputFormat: 'webp', autoCompress: true }), chromiumCanvas).cost).toBe(fixed + 2000 * 1500 * 4);
  });

  it("says which encoder writes the output: the browser's without optimised compression, a target size or not", () => {
    const source = { format: 'jpeg', size: { width: 10, height: 10 }, orientation: 1 } as const;
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: false }), chromiumCanvas).encoder).toBe('browser');
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: true }), chromiumCanvas).encoder).toBe('wasm');
    expect(planJob(source, settings({ outputFormat: 'png', enableCompression: true }), chromiumCanvas).encoder).toBe('wasm');
    expect(planJob(source, settings({ outputFormat: 'avif', enableCompression: false }), chromiumCanvas).encoder).toBe('wasm');
    // libwebp's WASM build saved nothing over the browser's libwebp at an equal look: optimised WebP is the browser's.
    expect(planJob(source, settings({ outputFormat: 'webp', enableCompression: true }), chromiumCanvas).encoder).toBe('browser');
    expect(planJob(source, settings({ outputFormat: 'webp', enableCompression: false }), chromiumCanvas).encoder).toBe('browser');
    // Where the browser's canvas has no WebP encoder (Safari, WebKitGTK) the worker runs libwebp, and the plan says so.
    expect(planJob(source, settings({ outputFormat: 'webp', enableCompression: true }), webkitCanvas).encoder).toBe('wasm');
    expect(planJob(source, settings({ outputFormat: 'webp', enableCompression: false }), webkitCanvas).encoder).toBe('wasm');
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: false }), webkitCanvas).encoder).toBe('browser');
    // The worker's target-size search uses the browser's encoder when compression is off, and the plan says so.
    const target = { enableTargetSize: true, targetFileSize: 200 };
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: false, ...target }), chromiumCanvas).encoder).toBe('browser');
    expect(planJob(source, settings({ outputFormat: 'jpeg', enableCompression: true, ...target }), chromiumCanvas).encoder).toBe('wasm');
  });
});

describe("the page reads a file's header once", () => {
  it('at intake: planning its conversions, again and with other settings, reads nothing more', async () => {
    const bytes = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#336699' } }).jpeg().withMetadata({ orientation: 8 }).toBuffer();
    const file = new CountingFile([new Uint8Array(bytes)], 'photo.jpg', { type: 'image/jpeg' });
    expect(await validateFile(file, 100_000_000)).toMatchObject({ isValid: true, size: { width: 120, height: 80 } });
    const readsAtIntake = file.partReads;
    expect(readsAtIntake).toBeGreaterThan(0);

    const first = await planFor(file, settings({ resizeWidth: 40 }));
    const second = await planFor(file, settings({ outputFormat: 'png' }));
    expect(file.partReads).toBe(readsAtIntake);
    expect(first.source).toEqual({ format: 'jpeg', size: { width: 120, height: 80 }, orientation: 8 });
    expect(first.geometry).toMatchObject({ width: 40, height: 60 });
    expect(second.geometry).toMatchObject({ width: 80, height: 120 });
  });
});
