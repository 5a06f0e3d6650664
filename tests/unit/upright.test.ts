import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversionSettings } from '../../core/contract.ts';
import { detectFormat, sourceFormatInfo } from '../../core/formats.ts';
import { planJob } from '../../core/plan.ts';
import { readImageHeader } from '../../src/conversion/probe.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { resizeLanczos3 } from '../../wasm/index.ts';
import { toImageData } from '../../core/raw-image.ts';
import { convertImage } from '../../workers/pipeline/convert.ts';
import { ORIENTED_SOURCES, makeOrientedSources, meanDifference, referenceRendering, thumbnailOf } from '../fixtures/oriented.ts';
import { ROUTE_CASES } from '../route-cases.ts';
import { chromiumCanvas } from './support/canvas.ts';
import { serveBuildAssets } from './support/serveBuildAssets.ts';

/**
 * Every source that says which way up it is, through the worker's pixel routes in Node, where no browser decodes: each
 * file goes to its format's WASM decoder (mozjpeg, libpng, libwebp, libavif, libheif, UTIF), whose stored pixels
 * the pipeline makes upright as the header read on the page says, or which applies the file's own orientation itself
 * (libheif: irot and imir, and never the EXIF Orientation beside them). Compared with a reference rendering (sharp;
 * heif-convert for HEIC). The browser's own decoder, its bitmaps and its encoders are the e2e route tests' part.
 */

const dir = mkdtempSync(join(tmpdir(), 'oriented-'));
beforeAll(async () => {
  serveBuildAssets();
  await makeOrientedSources(dir);
});

/** The pixel routes' cases that need no browser: PNG through oxipng, and a turn, a crop and a resize. */
const CASES = ROUTE_CASES.filter(({ name }) => ['the default settings', 'resized to a quarter', 'turned right and cropped square'].includes(name));

describe('the pixel routes in Node make every oriented source upright', () => {
  for (const routeCase of CASES) {
    it(`with ${routeCase.name}, to PNG`, async () => {
      const wrong: string[] = [];
      for (const { name } of ORIENTED_SOURCES) {
        const bytes = readFileSync(join(dir, name));
        const format = detectFormat(bytes)!;
        const header = (await readImageHeader(format, new Uint8Array(bytes)))!;
        const settings: ConversionSettings = { ...DEFAULT_SETTINGS, ...routeCase.settings, outputFormat: 'png' };
        const file = new Blob([new Uint8Array(bytes)], { type: sourceFormatInfo(format).mimeType });
        const request = { file, settings, plan: planJob({ format, ...header }, settings, chromiumCanvas), pixelLimit: 100_000_000, decodeAlone: false, alone: true, keepAt: null, judgeLater: false };
        const result = await convertImage(request, (image, width, height) => resizeLanczos3(toImageData(image), width, height), () => {});
        const expected = await routeCase.framed(await referenceRendering(join(dir, name)));
        const difference = meanDifference(await thumbnailOf(Buffer.from(result.bytes)), await thumbnailOf(expected));
        const want = await sharp(expected).metadata();
        if (result.width !== want.width || result.height !== want.height || difference > 12) wrong.push(`${name}: ${result.width} × ${result.height}, ${difference.toFixed(1)} from the reference`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
