import type { Size } from './geometry.ts';

/**
 * Which way up a stored picture is shown, in EXIF's numbering whatever said it (a JPEG's, PNG's or WebP's EXIF, a TIFF's
 * Orientation tag, a HEIF's `irot` and `imir`, a JPEG XL codestream's, a decoded frame's rotation and flip): 1 as
 * stored, 2–4 mirrored or upside down, 5–8 turned a quarter. The header readers name it, the plan carries it, and the
 * worker's one function that makes pixels upright (workers/pipeline/pixels.ts uprightPixels) applies it.
 */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export const UPRIGHT: Orientation = 1;

/** An EXIF Orientation value as read: 1–8, or 1 for anything else (a reader shows a bad value as stored). */
export function asOrientation(value: number): Orientation {
  return Number.isInteger(value) && value >= 1 && value <= 8 ? (value as Orientation) : UPRIGHT;
}

/** Whether showing the picture turns it a quarter (its shown width is its stored height). */
export const turnsAQuarter = (orientation: Orientation): boolean => orientation >= 5;

/** The size the picture is shown at. */
export const shownSizeOf = (stored: Size, orientation: Orientation): Size =>
  turnsAQuarter(orientation) ? { width: stored.height, height: stored.width } : stored;

/**
 * An orientation as a turn and a mirror: the stored picture turned `clockwise` degrees (0, 90, 180, 270), then, when
 * `mirrored`, mirrored left to right. This is how a WebCodecs VideoFrame says how to show its pixels.
 */
export interface Turn {
  clockwise: 0 | 90 | 180 | 270;
  mirrored: boolean;
}

const TURNS: Record<Orientation, Turn> = {
  1: { clockwise: 0, mirrored: false },
  2: { clockwise: 0, mirrored: true },
  3: { clockwise: 180, mirrored: false },
  4: { clockwise: 180, mirrored: true },
  5: { clockwise: 90, mirrored: true },
  6: { clockwise: 90, mirrored: false },
  7: { clockwise: 270, mirrored: true },
  8: { clockwise: 270, mirrored: false },
};

export const turnOf = (orientation: Orientation): Turn => TURNS[orientation];

const quarter = (degrees: number): Turn['clockwise'] => ((((Math.round(degrees / 90) % 4) + 4) % 4) * 90) as Turn['clockwise'];

/** The orientation of a turn and a mirror (a VideoFrame's `rotation` and `flip`). */
export function orientationOfTurn(clockwise: number, mirrored: boolean): Orientation {
  const turn = quarter(clockwise);
  const found = (Object.keys(TURNS) as unknown as Orientation[]).find((o) => TURNS[o].clockwise === turn && TURNS[o].mirrored === mirrored);
  return Number(found) as Orientation;
}

/** What showing a picture shown as `first`, then turned `clockwise`, gives. */
function thenTurned(first: Turn, clockwise: number): Turn {
  // Mirror ∘ turn(a), then turn(b): mirror ∘ turn(a − b), since a turn seen in a mirror goes the other way.
  return { clockwise: quarter(first.mirrored ? first.clockwise - clockwise : first.clockwise + clockwise), mirrored: first.mirrored };
}

/** One of HEIF's transformative properties, in the order the primary item's associations list them. */
export type HeifTransform = { irot: number } | { imir: number };

/**
 * The orientation HEIF's `irot` (quarter turns anticlockwise) and `imir` (axis 0: top and bottom swap; 1: left and
 * right swap) give, applied in the order listed (ISO/IEC 23008-12: transformative properties apply in the order of
 * their association).
 */
export function orientationOfHeif(transforms: readonly HeifTransform[]): Orientation {
  let shown: Turn = TURNS[UPRIGHT];
  for (const transform of transforms) {
    if ('irot' in transform) shown = thenTurned(shown, -90 * (transform.irot & 3));
    else if ((transform.imir & 1) === 1) shown = { ...shown, mirrored: !shown.mirrored };
    else shown = thenTurned({ ...shown, mirrored: !shown.mirrored }, 180);
  }
  return orientationOfTurn(shown.clockwise, shown.mirrored);
}
