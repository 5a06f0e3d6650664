import { describe, expect, it } from 'vitest';
import { ROUTES, type ConversionSettings, type Route, type SourceHeader } from '../../core/contract.ts';
import { planJob } from '../../core/plan.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { ORIENTED_SOURCES, orientedHeader } from '../fixtures/oriented.ts';
import { ALL_FORMATS, COMPRESSION_SWITCH_CHANGES, ENGINE_ROUTE_CASES, ROUTE_CASES, coveringWalk, type CanvasEncodes } from '../route-cases.ts';
import { CODECS } from '../../wasm/index.ts';
import { photoPixels } from '../fixtures/make-fixtures.ts';
import { serveBuildAssets } from './support/serveBuildAssets.ts';
import { provideImageData } from './support/imageData.ts';
import { chromiumCanvas, webkitCanvas } from './support/canvas.ts';

/**
 * The plan names a job's route (core/plan.ts planRoute), and the route tests walk each: the cases of
 * tests/route-cases.ts, with the oriented sources (tests/fixtures/oriented.ts), must between them plan every route
 * there is, so a route added to ROUTES fails here until a case sends a job down it.
 */

/** Each oriented source's header, as the page would read it. */
const headers: SourceHeader[] = ORIENTED_SOURCES.map(orientedHeader);

const routeOf = (header: SourceHeader, settings: Partial<ConversionSettings>, canvas = chromiumCanvas): Route => planJob(header, { ...DEFAULT_SETTINGS, ...settings }, canvas).route;

describe('the route a job takes', () => {
  it('the route cases, to their formats, plan every route there is', () => {
    const planned = new Set<Route>();
    for (const routeCase of ROUTE_CASES) {
      const sources = headers.filter((_, i) => routeCase.sources.includes(ORIENTED_SOURCES[i]!));
      for (const outputFormat of routeCase.formats) for (const header of sources) planned.add(routeOf(header, { ...routeCase.settings, outputFormat }));
    }
    expect([...planned].sort()).toEqual([...ROUTES].sort());
  });

  it('a plain re-encode the browser writes hands it the bitmap, whichever way up the source is', () => {
    for (const header of headers) expect(routeOf(header, { outputFormat: 'webp' })).toBe('bitmap');
    for (const header of headers) expect(routeOf(header, { outputFormat: 'jpeg', enableCompression: false })).toBe('bitmap');
  });

  it('jpegli reads rows only of a source stored upright: a turned or mirrored one goes through the pixels', () => {
    for (const header of headers) expect(routeOf(header, { outputFormat: 'jpeg' })).toBe(header.orientation === 1 ? 'rows' : 'pixels');
  });

  it('a browser without a WebP encoder sends WebP through the pixels to libwebp', () => {
    expect(routeOf(headers[0]!, { outputFormat: 'webp' }, webkitCanvas)).toBe('pixels');
  });

  it('a change to the pixels, a target size or Smart compression names its route whatever the output', () => {
    const photo = headers[0]!;
    expect(routeOf(photo, { outputFormat: 'webp', rotation: 90 })).toBe('pixels');
    expect(routeOf(photo, { outputFormat: 'webp', brightness: 10 })).toBe('pixels');
    expect(routeOf(photo, { outputFormat: 'png', enableTargetSize: true, targetFileSize: 100 })).toBe('target-size');
    expect(routeOf(photo, { outputFormat: 'avif', autoCompress: true })).toBe('smart');
    // Smart compression has no say over a lossless format, and a target size wins over it.
    expect(routeOf(photo, { outputFormat: 'png', autoCompress: true })).toBe('pixels');
    expect(routeOf(photo, { outputFormat: 'jpeg', autoCompress: true, enableTargetSize: true, targetFileSize: 100 })).toBe('target-size');
  });

  it('"Optimised compression" off changes nothing of a job to the formats its route case leaves out: the same encoder and route in every browser, the same bytes', async () => {
    serveBuildAssets();
    provideImageData();
    const unchanged = ALL_FORMATS.filter((format) => !COMPRESSION_SWITCH_CHANGES.includes(format));
    expect(unchanged).toEqual(['webp', 'avif']);
    // A 64 × 48 photo's texture, opaque.
    const rgb = photoPixels(64, 48, 3);
    const data = new Uint8ClampedArray(64 * 48 * 4).map((_, i) => (i % 4 === 3 ? 255 : rgb[Math.floor(i / 4) * 3 + (i % 4)]!));
    for (const outputFormat of unchanged) {
      for (const canvas of [chromiumCanvas, webkitCanvas]) {
        for (const header of headers) {
          const on = planJob(header, { ...DEFAULT_SETTINGS, outputFormat }, canvas);
          const off = planJob(header, { ...DEFAULT_SETTINGS, outputFormat, enableCompression: false }, canvas);
          expect([off.encoder, off.route], `${outputFormat} ${header.format} ${header.orientation}`).toEqual([on.encoder, on.route]);
        }
      }
      // The WASM encoder (WebP's where the browser has none) is told the switch (EncodeOptions.thorough), and ignores it.
      const encode = (thorough: boolean) => CODECS[outputFormat].encode({ data, width: 64, height: 48 }, { quality: 0.75, optimise: true, thorough }).then((bytes) => Buffer.from(bytes));
      expect((await encode(false)).equals(await encode(true)), outputFormat).toBe(true);
    }
  });
});

describe("the other engines' shorter walk (coveringWalk)", () => {
  for (const [engine, canvas] of [
    ['Firefox ESR', chromiumCanvas],
    ['WebKitGTK', webkitCanvas],
  ] as [string, CanvasEncodes][]) {
    it(`${engine}: each source down every route a case plans for it, and every format's encoder in every case, in fewer conversions`, () => {
      const walked = new Set<string>();
      const walks = ENGINE_ROUTE_CASES.map((routeCase) => ({ routeCase, passes: coveringWalk(routeCase, canvas, walked) }));
      const routeIn = (settings: Partial<ConversionSettings>, source: (typeof ORIENTED_SOURCES)[number], outputFormat: ConversionSettings['outputFormat']) =>
        routeOf(orientedHeader(source), { ...settings, outputFormat }, canvas);
      for (const [index, { routeCase, passes }] of walks.entries()) {
        expect(passes.map(({ format }) => format).sort()).toEqual([...routeCase.formats].sort());
        for (const { sources } of passes) expect(sources.length).toBeGreaterThan(0);
        // Every source and route of the whole grid, converted in this case or an earlier one that frames it the same.
        for (const format of routeCase.formats) {
          for (const source of routeCase.sources) {
            const route = routeIn(routeCase.settings, source, format);
            const converted = walks
              .slice(0, index + 1)
              .some((walk) => walk.routeCase.framed === routeCase.framed && walk.passes.some((pass) => pass.sources.includes(source) && routeIn(walk.routeCase.settings, source, pass.format) === route));
            expect(converted, `${routeCase.name}, ${format}: ${source.name} down ${route}`).toBe(true);
          }
        }
      }
      const conversions = walks.flatMap(({ passes }) => passes).reduce((sum, { sources }) => sum + sources.length, 0);
      const whole = ENGINE_ROUTE_CASES.reduce((sum, { formats, sources }) => sum + formats.length * sources.length, 0);
      expect(conversions).toBeLessThan(whole / 2);
    });
  }
});
