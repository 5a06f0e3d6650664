import type { Framing } from './contract.ts';
import type { Rect, Size } from './geometry.ts';

/**
 * The geometry of a picture for the compare view (the worker draws it, workers/pipeline/framed-view.ts): which part of
 * an upright image it shows, turned and cropped as an output frames it, and at what size.
 */

/** A 2D affine transform as a canvas takes it: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = [a: number, b: number, c: number, d: number, e: number, f: number];

export interface ViewPlan {
  /** The picture's size in pixels. */
  size: Size;
  /** Picture pixels per pixel of the framed image. */
  scale: number;
  /** The shown part's top-left corner, in the framed image's pixels. */
  origin: { x: number; y: number };
}

/** The framed image: the crop of the turned image, or the upright image itself. */
export function framedRect(upright: Size, framing: Framing | null): Rect {
  return framing ? framing.crop : { x: 0, y: 0, ...upright };
}

/** The part shown (all of the framed image, or `region` within it) fitted into `box`, never enlarged. */
export function planView(upright: Size, framing: Framing | null, region: Rect | null, box: Size): ViewPlan {
  const framed = framedRect(upright, framing);
  const part = region ?? { x: 0, y: 0, width: framed.width, height: framed.height };
  const scale = Math.min(1, box.width / part.width, box.height / part.height);
  return {
    size: { width: Math.max(1, Math.round(part.width * scale)), height: Math.max(1, Math.round(part.height * scale)) },
    scale,
    origin: { x: part.x, y: part.y },
  };
}

const multiply = ([a1, b1, c1, d1, e1, f1]: Matrix, [a2, b2, c2, d2, e2, f2]: Matrix): Matrix => [
  a1 * a2 + c1 * b2,
  b1 * a2 + d1 * b2,
  a1 * c2 + c1 * d2,
  b1 * c2 + d1 * d2,
  a1 * e2 + c1 * f2 + e1,
  b1 * e2 + d1 * f2 + f1,
];

/** Upright coordinates to turned ones, for a rotation setting (clockwise, a multiple of 90°). */
function turning(rotation: number, upright: Size): Matrix {
  switch (((rotation % 360) + 360) % 360) {
    case 90:
      return [0, 1, -1, 0, upright.height, 0];
    case 180:
      return [-1, 0, 0, -1, upright.width, upright.height];
    case 270:
      return [0, -1, 1, 0, 0, upright.width];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

/**
 * Where a pixel of the decoded bitmap lands in the picture: the bitmap is the upright image decoded at `decodedScale`
 * of its size; it is turned by the framing's rotation, moved so the shown part starts at the picture's corner, and
 * scaled by the plan.
 */
export function viewMatrix(plan: ViewPlan, upright: Size, framing: Framing | null, decodedScale: number): Matrix {
  const framed = framedRect(upright, framing);
  const toPicture: Matrix = [plan.scale, 0, 0, plan.scale, -(framed.x + plan.origin.x) * plan.scale, -(framed.y + plan.origin.y) * plan.scale];
  const fromDecoded: Matrix = [1 / decodedScale, 0, 0, 1 / decodedScale, 0, 0];
  return multiply(multiply(toPicture, turning(framing?.rotation ?? 0, upright)), fromDecoded);
}

/** A point through a matrix (for the tests, and whoever maps a tap). */
export const applyMatrix = ([a, b, c, d, e, f]: Matrix, x: number, y: number) => ({ x: a * x + c * y + e, y: b * x + d * y + f });
