import { orientationExif } from '../../core/exif.ts';
import { CONVERSION_ERRORS } from '../../core/messages.ts';
import { orientationOfTurn } from '../../core/orientation.ts';
import { jpegMetadata } from '../../wasm/jpeg/exif.ts';
import { releaseCanvas } from './canvas-encoder.ts';
import { uprightPixels } from './pixels.ts';
import { createRawImage, handedToBrowser, type PixelRows, type RawImage } from '../../core/raw-image.ts';

/**
 * A decoded bitmap's pixels, read out for the pipeline. Through WebCodecs' VideoFrame.copyTo where the engine reads
 * them right: the same bytes as drawImage + getImageData in about half the time in Chromium, which is most of what a
 * WASM encoder costs beyond the browser's own (docs/benchmark.md). A frame made from a bitmap keeps the pixels as
 * stored and says how to show them (`rotation`, `flip`), so they are turned here.
 */

/** What a VideoFrame says of its orientation (WebCodecs; absent from older engines and from TypeScript's DOM types). */
interface FrameTurn {
  /** Clockwise degrees: 0, 90, 180 or 270. */
  rotation: number;
  /** A horizontal mirror, applied after the rotation. */
  flip: boolean;
}

/** How a frame says its pixels are shown (rotated clockwise, then mirrored), as an orientation (core/orientation.ts). */
export const frameOrientation = ({ rotation, flip }: FrameTurn) => orientationOfTurn(rotation, flip);

/** Formats of a frame without alpha: copying one out as RGBA loses nothing (a frame with alpha goes through the canvas, which un-premultiplies it). */
const OPAQUE_FORMATS = new Set(['RGBX', 'BGRX']);

/**
 * The bitmap's upright pixels as sRGB RGBA through a VideoFrame, or null (the bitmap still open) where this path does
 * not apply. Once the pixels are copied the bitmap is closed, before turning them takes a second buffer.
 */
async function copyFramePixels(bitmap: ImageBitmap): Promise<RawImage | null> {
  let frame: VideoFrame;
  try {
    frame = new VideoFrame(bitmap, { timestamp: 0 });
  } catch {
    return null;
  }
  let stored: RawImage;
  let orientation: FrameTurn;
  try {
    if (!frame.format || !OPAQUE_FORMATS.has(frame.format)) return null;
    const shown = frame as VideoFrame & Partial<FrameTurn>;
    orientation = { rotation: shown.rotation ?? 0, flip: shown.flip ?? false };
    const { width, height } = frame.visibleRect ?? { width: frame.codedWidth, height: frame.codedHeight };
    const quarterTurned = orientation.rotation % 180 !== 0;
    if ((quarterTurned ? height : width) !== bitmap.width || (quarterTurned ? width : height) !== bitmap.height) return null;
    stored = createRawImage(width, height);
    // No colorSpace: sRGB is WebCodecs' default, and the bitmap's pixels are sRGB already (decoded with the default
    // colour conversion). Chromium, asked for "srgb" outright, converts the pixels anyway: 3× the time on an sRGB
    // photo for the same bytes (docs/decisions/encoder-settings.md).
    handedToBrowser(stored);
    await frame.copyTo(stored.data, { format: 'RGBA' } as VideoFrameCopyToOptions);
  } catch {
    return null;
  } finally {
    frame.close();
  }
  bitmap.close();
  return uprightPixels(stored, frameOrientation(orientation));
}

/**
 * A frame's stored rows, read with `copyTo` and a `rect` into the caller's buffer: frameRows' strips, and the check's
 * rows (framesReadAsCanvas), so the check reads as the encoder will.
 */
function frameRowReader(frame: VideoFrame): PixelRows {
  const { x, y, width, height } = frame.visibleRect ?? { x: 0, y: 0, width: frame.codedWidth, height: frame.codedHeight };
  const stride = width * 4;
  return {
    width,
    height,
    readRows: async (row, count, into) => {
      await frame.copyTo(into, { format: 'RGBA', rect: { x, y: y + row, width, height: count }, layout: [{ offset: 0, stride }] } as VideoFrameCopyToOptions);
    },
  };
}

/** A frame's stored pixels read a row at a time (frameRowReader). */
async function storedPixelsByRows(frame: VideoFrame): Promise<Uint8Array> {
  const { width, height, readRows } = frameRowReader(frame);
  const pixels = new Uint8Array(width * height * 4);
  for (let row = 0; row < height; row++) await readRows(row, 1, pixels.subarray(row * width * 4, (row + 1) * width * 4));
  return pixels;
}

/** What this engine's VideoFrame reads as its canvas does (framesReadAsCanvas). */
interface FrameReading {
  /** A whole frame, turned as it says: copyFramePixels. */
  whole: boolean;
  /** A frame's rows, a strip at a time: frameRows. */
  byRows: boolean;
}

/**
 * Whether this engine's VideoFrame reads a bitmap as its canvas does: an 8 × 4 picture with a mark in three corners,
 * stored with EXIF orientation 7 (a quarter turn and a mirror), read both ways. An engine that drops the orientation,
 * reports it otherwise or converts colours otherwise fails it and keeps the canvas. Read a row at a time, the stored
 * pixels must be the whole read's, or frames are not read by rows.
 */
async function framesReadAsCanvas(): Promise<FrameReading> {
  const neither = { whole: false, byRows: false };
  if (typeof VideoFrame === 'undefined' || typeof OffscreenCanvas === 'undefined') return neither;
  try {
    const canvas = new OffscreenCanvas(8, 4);
    const context = canvas.getContext('2d')!;
    const marks: [string, number, number, number, number][] = [['#d02020', 0, 0, 8, 4], ['#20a040', 4, 0, 4, 2], ['#2040d0', 0, 2, 2, 2], ['#e0e020', 6, 3, 2, 1]];
    for (const [colour, x, y, w, h] of marks) {
      context.fillStyle = colour;
      context.fillRect(x, y, w, h);
    }
    const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 1 })).arrayBuffer());
    const oriented = jpegMetadata.writeExif!(jpeg, orientationExif(7), canvas);
    const probe = new Blob([oriented as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' });
    const decode = () => createImageBitmap(probe, { imageOrientation: 'from-image' });
    const frameSide = await decode();
    const viaFrame = await copyFramePixels(frameSide);
    // Closed by the read-out when it succeeded; left open when it did not apply.
    if (!viaFrame) frameSide.close();
    const viaCanvas = canvasPixels(await decode());
    const whole = viaFrame !== null && viaFrame.data.every((value, index) => value === viaCanvas.data[index]);
    if (!whole) return neither;
    const rowsSide = await decode();
    const frame = new VideoFrame(rowsSide, { timestamp: 0 });
    try {
      const stored = new Uint8Array(frame.allocationSize({ format: 'RGBA' } as VideoFrameCopyToOptions));
      await frame.copyTo(stored, { format: 'RGBA' } as VideoFrameCopyToOptions);
      const byRows = await storedPixelsByRows(frame);
      return { whole, byRows: byRows.length === stored.length && byRows.every((value, index) => value === stored[index]) };
    } catch {
      return { whole, byRows: false };
    } finally {
      frame.close();
      rowsSide.close();
    }
  } catch {
    return neither;
  }
}

let framesRead: Promise<FrameReading> | null = null;

/** The bitmap's pixels drawn on a canvas and read back: every engine's way. The bitmap is closed as soon as it is drawn, before the pixels are read out. */
function canvasPixels(bitmap: ImageBitmap): RawImage {
  const { width, height } = bitmap;
  let context: OffscreenCanvasRenderingContext2D | null;
  try {
    context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error(CONVERSION_ERRORS.canvas);
    context.drawImage(bitmap, 0, 0);
  } finally {
    bitmap.close();
  }
  const pixels = context.getImageData(0, 0, width, height, { colorSpace: 'srgb' });
  releaseCanvas(context.canvas);
  return pixels;
}

/**
 * The bitmap's upright pixels as sRGB RGBA, and the bitmap closed: through a VideoFrame where this engine passed the
 * check (once per worker) and the frame has no alpha, else through a canvas.
 */
export async function bitmapToPixels(bitmap: ImageBitmap): Promise<RawImage> {
  const viaFrame = (await (framesRead ??= framesReadAsCanvas())).whole ? await copyFramePixels(bitmap) : null;
  return viaFrame ?? canvasPixels(bitmap);
}

/** A frame's rows, read as an encoder takes them; closed once the encode is done. */
export interface FrameRows extends PixelRows {
  close(): void;
}

/**
 * The bitmap's rows as sRGB RGBA, read out of a VideoFrame a strip at a time as the encoder asks (`copyTo` with a
 * `rect`, into the encoder's own buffer): no copy of the whole picture, which for a 12 MP photo is 48 MB to allocate
 * and fill before jpegli reads it again. Null where this engine did not pass the check, or the frame has alpha or is
 * stored turned (its pixels are turned as a whole: bitmapToPixels). The bitmap stays open; the caller closes both.
 */
export async function frameRows(bitmap: ImageBitmap): Promise<FrameRows | null> {
  if (!(await (framesRead ??= framesReadAsCanvas())).byRows) return null;
  let frame: VideoFrame;
  try {
    frame = new VideoFrame(bitmap, { timestamp: 0 });
  } catch {
    return null;
  }
  const shown = frame as VideoFrame & Partial<FrameTurn>;
  const rows = frameRowReader(frame);
  const upright = (shown.rotation ?? 0) === 0 && !(shown.flip ?? false);
  if (!frame.format || !OPAQUE_FORMATS.has(frame.format) || !upright || rows.width !== bitmap.width || rows.height !== bitmap.height) {
    frame.close();
    return null;
  }
  return { ...rows, close: () => frame.close() };
}
