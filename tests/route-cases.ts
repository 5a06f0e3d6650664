import { join } from 'node:path';
import sharp from 'sharp';
import type { ConversionSettings, ImageFormat } from '../core/contract.ts';
import { FORMATS } from '../core/formats.ts';
import { ORIENTED_SOURCES, meanDifference, orientedHeader, referenceRendering, thumbnailOf, type OrientedSource } from './fixtures/oriented.ts';
import { planJob } from '../core/plan.ts';
import { DEFAULT_SETTINGS } from '../src/features/settings/settings.ts';
import { magicFormat, sharpReadable } from './independentDecoders.ts';

/**
 * The settings that send a job down each route the plan names (core/plan.ts planRoute), and what each makes of an
 * upright picture: the route-walking tests (tests/e2e/routes.spec.ts, the engines' scenarios) convert every oriented
 * source (tests/fixtures/oriented.ts) with each, to each format, and compare the output with a reference rendering
 * of the source framed the same way. tests/unit/routes.test.ts holds these cases to covering every route.
 */
export interface RouteCase {
  name: string;
  /** What the case changes from the defaults. */
  settings: Partial<ConversionSettings>;
  /** The formats it converts to: Smart compression is for lossy formats only. */
  formats: readonly ImageFormat[];
  /**
   * The oriented sources it converts: every one for the plain re-encodes (the routes where the browser's bitmap or a
   * frame's rows are handed on, which once dropped how a source is shown), one of each kind for the routes through the
   * pixels, which make every source upright in the same place whatever is done after.
   */
  sources: readonly OrientedSource[];
  /** The upright picture (PNG) framed as the output should frame it: turned, cropped, resized. */
  framed(upright: Buffer): Promise<Buffer>;
}

export const ALL_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'webp', 'avif', 'jxl'];
/** One source of each kind, each turned and mirrored or turned a quarter where its kind can say so. */
export const ONE_OF_EACH_KIND: readonly OrientedSource[] = ['jpeg-exif-7.jpg', 'png-exif-6.png', 'webp-exif-8.webp', 'avif-irot-imir-5.avif', 'heic-iphone-6.heic', 'tiff-orientation-7.tiff'].map(
  (name) => ORIENTED_SOURCES.find((source) => source.name === name)!,
);
const LOSSY_FORMATS: readonly ImageFormat[] = ['jpeg', 'webp', 'avif', 'jxl'];
/** The formats whose job "Optimised compression" changes: its encoder, or the encoder's effort. */
export const COMPRESSION_SWITCH_CHANGES: readonly ImageFormat[] = ['jpeg', 'png', 'jxl'];
const asIs = async (upright: Buffer) => upright;

export const ROUTE_CASES: readonly RouteCase[] = [
  { name: 'the default settings', settings: {}, formats: ALL_FORMATS, sources: ORIENTED_SOURCES, framed: asIs },
  // Only the formats the switch changes: JPG and PNG go to the browser's encoder from its bitmap instead of jpegli and
  // oxipng, and JPEG XL to libjxl's fast effort. WebP and AVIF take the same encoder, route and bytes either way
  // (tests/unit/routes.test.ts), so the default settings' case has already walked them.
  { name: 'Optimised compression off', settings: { enableCompression: false }, formats: COMPRESSION_SWITCH_CHANGES, sources: ORIENTED_SOURCES, framed: asIs },
  { name: 'Smart compression', settings: { autoCompress: true }, formats: LOSSY_FORMATS, sources: ONE_OF_EACH_KIND, framed: asIs },
  // Large enough for every format's output at the first quality tried (a PNG has no quality to lower).
  { name: 'a target size', settings: { enableTargetSize: true, targetFileSize: 150 }, formats: ALL_FORMATS, sources: ONE_OF_EACH_KIND, framed: asIs },
  // A quarter of the width: a JPEG decodes smaller in the browser's decoder (decode-smaller.md), the rest resize.
  {
    name: 'resized to a quarter',
    settings: { aspectRatio: 'custom', resizeWidth: 60 },
    formats: ALL_FORMATS,
    sources: ONE_OF_EACH_KIND,
    framed: (upright) => sharp(upright).resize(60).png().toBuffer(),
  },
  // Rotated right, then a centred square of it at 120 × 120.
  {
    name: 'turned right and cropped square',
    settings: { aspectRatio: 'custom', resizeWidth: 120, resizeHeight: 120, rotation: 90 },
    formats: ALL_FORMATS,
    sources: ONE_OF_EACH_KIND,
    framed: async (upright) => {
      const turned = await sharp(upright).rotate(90).png().toBuffer();
      const { width, height } = await sharp(turned).metadata();
      const side = Math.min(width!, height!);
      return sharp(turned)
        .extract({ left: Math.floor((width! - side) / 2), top: Math.floor((height! - side) / 2), width: side, height: side })
        .resize(120, 120)
        .png()
        .toBuffer();
    },
  },
];

/**
 * The cases the other engines walk (tests/engines/scenarios.ts): the routes a visitor takes most, the default settings
 * and "Optimised compression" off, with one source of each kind. Chromium walks every case with every source
 * (tests/e2e/routes.spec.ts); there the question is what each engine's decoder and canvas do with each kind.
 */
export const ENGINE_ROUTE_CASES: readonly RouteCase[] = ROUTE_CASES.filter(({ name }) => name === 'the default settings' || name === 'Optimised compression off').map((routeCase) => ({
  ...routeCase,
  sources: ONE_OF_EACH_KIND,
}));

/** The formats a case converts to, as a title says them: "every format", or their labels. */
export function formatsNamed({ formats }: RouteCase): string {
  if (formats.length === ALL_FORMATS.length) return 'every format';
  const labels = formats.map((format) => FORMATS[format].label);
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** Whether a browser's canvas encodes a type (src/conversion/canvasTypes.ts), for plans made outside the page. */
export type CanvasEncodes = (mimeType: string) => boolean;

/** One format's pass of a case: the sources converted to it. */
export interface WalkPass {
  format: ImageFormat;
  sources: OrientedSource[];
}

const framings = new Map<RouteCase['framed'], number>();

/**
 * A shorter walk of cases, for an engine whose every conversion takes seconds (WebKitGTK's): to each format of each
 * case, the sources the walk has not yet seen go down the route the plan gives them there, framed as the case frames
 * them, and at least the case's first source, so that every format's encoder runs in every case. A route makes a
 * source's pixels upright before it hands them on, whatever encoder comes after (the pixels in one function, a bitmap
 * in the browser's decoder), so the same source down the same route to a second format shows nothing new of which way
 * up it comes out. `walked` carries what earlier cases walked: "Optimised compression" off frames and routes as the
 * default settings do. The passes come most sources first, so that each pass's sources are mostly the last one's.
 */
export function coveringWalk(routeCase: RouteCase, canvas: CanvasEncodes, walked: Set<string>): WalkPass[] {
  if (!framings.has(routeCase.framed)) framings.set(routeCase.framed, framings.size);
  const framing = framings.get(routeCase.framed);
  const passes = routeCase.formats.map((format) => {
    const fresh = routeCase.sources.filter((source) => {
      const { route } = planJob(orientedHeader(source), { ...DEFAULT_SETTINGS, ...routeCase.settings, outputFormat: format }, canvas);
      const key = `${framing} ${source.name} ${route}`;
      if (walked.has(key)) return false;
      walked.add(key);
      return true;
    });
    return { format, sources: fresh.length > 0 ? fresh : [routeCase.sources[0]!] };
  });
  return passes.sort((a, b) => b.sources.length - a.sources.length);
}

/** What each oriented source should come out as with a case: the thumbnail and size of its reference, framed. */
export type Expected = Map<string, { thumbnail: Buffer; width: number; height: number }>;

export async function expectedOutputs(routeCase: RouteCase, orientedDir: string): Promise<Expected> {
  const expected: Expected = new Map();
  for (const { name } of routeCase.sources) {
    const framed = await routeCase.framed(await referenceRendering(join(orientedDir, name)));
    const { width, height } = await sharp(framed).metadata();
    expected.set(name, { thumbnail: await thumbnailOf(framed), width: width!, height: height! });
  }
  return expected;
}

/** Within this mean difference (0–255, a 24 × 16 thumbnail) an output is the reference; a turn or a mirror is 30 or more. */
const SAME_PICTURE = 12;

/**
 * Each output of the oriented sources (`files`, by name, as the zip holds them) that is not its reference: a file of
 * the format (by its leading bytes), shown as a viewer shows it (its own orientation applied; none is expected), with
 * the reference's size and its look.
 */
export async function wrongOutputs(files: Record<string, Buffer>, expected: Expected, output: { label: string; extension: string; format: string }): Promise<string[]> {
  const wrong: string[] = [];
  for (const name of expected.keys()) {
    const outputName = `${name.replace(/\.[^.]+$/, '')}.${output.extension}`;
    const bytes = files[outputName];
    const want = expected.get(name)!;
    if (!bytes) {
      wrong.push(`${output.label} ${name}: no ${outputName} in the zip`);
      continue;
    }
    if (magicFormat(bytes) !== output.format) {
      wrong.push(`${output.label} ${name}: ${outputName} is ${magicFormat(bytes)}, not ${output.format}`);
      continue;
    }
    const shown = await sharp(sharpReadable(bytes)).rotate().png().toBuffer();
    const { width, height } = await sharp(shown).metadata();
    const difference = meanDifference(await thumbnailOf(shown), want.thumbnail);
    if (width !== want.width || height !== want.height || difference > SAME_PICTURE) {
      wrong.push(`${output.label} ${name}: ${width} × ${height} (want ${want.width} × ${want.height}), ${difference.toFixed(1)} from the reference`);
    }
  }
  return wrong;
}
