/**
 * The output's frame, from the settings that shape it: the size, the crop's ratio, the turn and the adjustments.
 * Imports nothing of the app's: the settings (contract.ts) are made of these types, not the other way round.
 */

export const ASPECT_RATIOS = ['original', '1:1', '16:9', '4:3', '9:16', 'custom'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** What of the settings (contract.ts ConversionSettings) shapes the output's pixels. */
export interface FramingSettings {
  aspectRatio: AspectRatio;
  resizeWidth: number | null;
  resizeHeight: number | null;
  /** Degrees, a multiple of 90 in [0, 360). */
  rotation: number;
  brightness: number;
  contrast: number;
  saturation: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GeometryPlan {
  /** Region of the (already rotated) source to keep. */
  crop: Rect;
  /** Final output size. */
  width: number;
  height: number;
}

/** Width ÷ height of a fixed ratio ("16:9"), or null for original and custom. */
export function fixedRatio(ratio: AspectRatio): number | null {
  const match = /^(\d+):(\d+)$/.exec(ratio);
  return match ? Number(match[1]) / Number(match[2]) : null;
}

type SizeSettings = Pick<FramingSettings, 'aspectRatio' | 'resizeWidth' | 'resizeHeight'>;

const MAX_EDGE = 16384;

function ratioOf(settings: SizeSettings): number | null {
  const fixed = fixedRatio(settings.aspectRatio);
  if (fixed !== null) return fixed;
  if (settings.aspectRatio === 'custom' && settings.resizeWidth && settings.resizeHeight) {
    return settings.resizeWidth / settings.resizeHeight;
  }
  return null;
}

function edge(value: number): number {
  return Math.min(MAX_EDGE, Math.max(1, Math.round(value)));
}

/** The largest centred rectangle of the given ratio inside width × height. */
export function centreCrop(width: number, height: number, ratio: number): Rect {
  if (width / height > ratio) {
    const cropWidth = edge(height * ratio);
    return { x: Math.floor((width - cropWidth) / 2), y: 0, width: Math.min(cropWidth, width), height };
  }
  const cropHeight = edge(width / ratio);
  return { x: 0, y: Math.floor((height - cropHeight) / 2), width, height: Math.min(cropHeight, height) };
}

/**
 * Where to crop and what size to produce, never stretching:
 * a ratio (fixed, or custom width and height) centre-crops to that ratio, then scales to the width (height derived);
 * a single dimension without a ratio keeps the source's ratio; nothing set keeps the source's size.
 */
export function planGeometry(source: { width: number; height: number }, settings: SizeSettings): GeometryPlan {
  const full: Rect = { x: 0, y: 0, width: source.width, height: source.height };
  const ratio = ratioOf(settings);
  const { resizeWidth: w, resizeHeight: h } = settings;

  if (ratio !== null) {
    const crop = centreCrop(source.width, source.height, ratio);
    if (settings.aspectRatio === 'custom' && w && h) return { crop, width: edge(w), height: edge(h) };
    const width = w ? edge(w) : h ? edge(h * ratio) : crop.width;
    return { crop, width, height: edge(width / ratio) };
  }
  if (w && h) return { crop: full, width: edge(w), height: edge(h) };
  if (w) return { crop: full, width: edge(w), height: edge((w * source.height) / source.width) };
  if (h) return { crop: full, width: edge((h * source.width) / source.height), height: edge(h) };
  return { crop: full, width: source.width, height: source.height };
}

/** A width and height. */
export interface Size {
  width: number;
  height: number;
}

/** How far apart two aspect ratios may be, relatively, for one picture to frame what the other does. */
const SAME_FRAMING = 0.02;

/**
 * Whether a picture of size `a` frames what one of size `b` does: their aspect ratios within 2% (a thumbnail's
 * rounding; a thumbnail with bars, or of another aspect, is further off: a Sony camera's 160 × 120 beside its 3:2 photo).
 */
export function framesAlike(a: Size, b: Size): boolean {
  const [ratioA, ratioB] = [a.width / a.height, b.width / b.height];
  return a.width > 0 && a.height > 0 && b.width > 0 && b.height > 0 && Math.abs(ratioA - ratioB) <= SAME_FRAMING * ratioB;
}

/** The size a quarter turn gives. */
export const turned = (size: Size): Size => ({ width: size.height, height: size.width });

/** The size after the rotation setting (a multiple of 90°). */
export const rotated = (size: Size, rotation: number): Size => (rotation % 180 === 0 ? size : turned(size));

/**
 * How much of the source's resolution the output needs: below 1 when the output is smaller than the part of the
 * source it shows. `upright` is the source as shown (EXIF orientation applied), before the rotation setting.
 */
export function resolutionNeeded(upright: Size, settings: SizeSettings & { rotation: number }): number {
  const plan = planGeometry(rotated(upright, settings.rotation), settings);
  return Math.max(plan.width / plan.crop.width, plan.height / plan.crop.height);
}

/** A rectangle of a full-size image mapped onto the same image decoded at width × height, kept inside it. */
export function scaleRect(rect: Rect, full: Size, decoded: Size): Rect {
  const sx = decoded.width / full.width;
  const sy = decoded.height / full.height;
  const x = Math.min(decoded.width - 1, Math.round(rect.x * sx));
  const y = Math.min(decoded.height - 1, Math.round(rect.y * sy));
  return {
    x,
    y,
    width: Math.max(1, Math.min(decoded.width - x, Math.round(rect.width * sx))),
    height: Math.max(1, Math.min(decoded.height - y, Math.round(rect.height * sy))),
  };
}

/** The centred part of an image with at most `maxPixels`, of the image's own shape: all of it when it is that small. */
export function centredPart(size: Size, maxPixels: number): Rect {
  const scale = Math.sqrt(maxPixels / (size.width * size.height));
  // Not a spread: an ImageData's width and height are getters, which a spread leaves out.
  if (scale >= 1) return { x: 0, y: 0, width: size.width, height: size.height };
  const width = Math.max(1, Math.floor(size.width * scale));
  const height = Math.max(1, Math.floor(size.height * scale));
  return { x: Math.floor((size.width - width) / 2), y: Math.floor((size.height - height) / 2), width, height };
}

/**
 * Whether the output's pixels differ from the decoded source's (other than by flattening onto a background):
 * when they do not, the browser can encode straight from its decoded bitmap, with no pixel round-trip.
 */
export function changesPixels(source: Size, settings: FramingSettings): boolean {
  if (settings.rotation % 360 !== 0 || settings.brightness !== 0 || settings.contrast !== 0 || settings.saturation !== 0) return true;
  const plan = planGeometry(source, settings);
  return plan.width !== source.width || plan.height !== source.height || plan.crop.width !== source.width || plan.crop.height !== source.height;
}
