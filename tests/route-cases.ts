import sharp from 'sharp';
import type { ConversionSettings, ImageFormat } from '../core/contract';

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
  /** The upright picture (PNG) framed as the output should frame it: turned, cropped, resized. */
  framed(upright: Buffer): Promise<Buffer>;
}

export const ALL_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'webp', 'avif', 'jxl'];
const LOSSY_FORMATS: readonly ImageFormat[] = ['jpeg', 'webp', 'avif', 'jxl'];
const asIs = async (upright: Buffer) => upright;

export const ROUTE_CASES: readonly RouteCase[] = [
  { name: 'the default settings', settings: {}, formats: ALL_FORMATS, framed: asIs },
  { name: 'Optimised compression off', settings: { enableCompression: false }, formats: ALL_FORMATS, framed: asIs },
  { name: 'Smart compression', settings: { autoCompress: true }, formats: LOSSY_FORMATS, framed: asIs },
  // Large enough for every format's output at the first quality tried (a PNG has no quality to lower).
  { name: 'a target size', settings: { enableTargetSize: true, targetFileSize: 150 }, formats: ALL_FORMATS, framed: asIs },
  // A quarter of the width: a JPEG decodes smaller in the browser's decoder (decode-smaller.md), the rest resize.
  {
    name: 'resized to a quarter',
    settings: { aspectRatio: 'custom', resizeWidth: 60 },
    formats: ALL_FORMATS,
    framed: (upright) => sharp(upright).resize(60).png().toBuffer(),
  },
  // Rotated right, then a centred square of it at 120 × 120.
  {
    name: 'turned right and cropped square',
    settings: { aspectRatio: 'custom', resizeWidth: 120, resizeHeight: 120, rotation: 90 },
    formats: ALL_FORMATS,
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
