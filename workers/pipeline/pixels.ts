import { createRawImage, type RawImage } from '../../core/raw-image.ts';
import type { Rect } from '../../core/geometry.ts';
import { turnOf, type Orientation } from '../../core/orientation.ts';

/** Rotates clockwise by a multiple of 90 degrees. */
export function rotate(image: RawImage, degrees: number): RawImage {
  const turns = ((Math.round(degrees / 90) % 4) + 4) % 4;
  if (turns === 0) return image;
  const { width, height } = image;
  const out = createRawImage(turns === 2 ? width : height, turns === 2 ? height : width);
  const source = new Uint32Array(image.data.buffer, image.data.byteOffset, width * height);
  const target = new Uint32Array(out.data.buffer);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let index: number;
      if (turns === 1) index = x * out.width + (height - 1 - y);
      else if (turns === 2) index = (height - 1 - y) * width + (width - 1 - x);
      else index = (width - 1 - x) * out.width + y;
      target[index] = source[y * width + x]!;
    }
  }
  return out;
}

/** Mirrors left to right. */
export function flipHorizontal(image: RawImage): RawImage {
  const { width, height } = image;
  const out = createRawImage(width, height);
  const source = new Uint32Array(image.data.buffer, image.data.byteOffset, width * height);
  const target = new Uint32Array(out.data.buffer);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) target[row + x] = source[row + width - 1 - x]!;
  }
  return out;
}

/**
 * Stored pixels made upright: turned clockwise, then mirrored, as their orientation says (core/orientation.ts). The
 * one place pixels are made upright: a WASM decoder's stored pixels, a VideoFrame's, and a browser decode that left
 * the orientation to the page all come through here; everything else comes upright from the browser's decoder.
 */
export function uprightPixels(stored: RawImage, orientation: Orientation): RawImage {
  const { clockwise, mirrored } = turnOf(orientation);
  const turned = rotate(stored, clockwise);
  return mirrored ? flipHorizontal(turned) : turned;
}

export function crop(image: RawImage, rect: Rect): RawImage {
  if (rect.x === 0 && rect.y === 0 && rect.width === image.width && rect.height === image.height) return image;
  const out = createRawImage(rect.width, rect.height);
  const rowBytes = rect.width * 4;
  for (let y = 0; y < rect.height; y++) {
    const start = ((rect.y + y) * image.width + rect.x) * 4;
    out.data.set(image.data.subarray(start, start + rowBytes), y * rowBytes);
  }
  return out;
}

export interface Adjustments {
  brightness: number;
  contrast: number;
  saturation: number;
}

/** The spec's slider → CSS filter amount: 100% plus twice the slider value. */
export function filterAmount(slider: number): number {
  return 1 + (2 * slider) / 100;
}

const clamp255 = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : value);

/**
 * brightness(a) then contrast(a) then saturate(s), with the CSS Filter Effects formulas on non-premultiplied
 * sRGB values, clamped after each, in place. Computed here rather than with ctx.filter so every browser
 * gives the same pixels.
 */
export function adjust(image: RawImage, adjustments: Adjustments): RawImage {
  const b = filterAmount(adjustments.brightness);
  const c = filterAmount(adjustments.contrast);
  const s = filterAmount(adjustments.saturation);
  if (b === 1 && c === 1 && s === 1) return image;

  // Brightness and contrast act on each channel alone, so one table covers both.
  const table = new Float64Array(256);
  for (let v = 0; v < 256; v++) table[v] = clamp255(clamp255(v * b) * c + 127.5 * (1 - c));

  const data = image.data;
  if (s === 1) {
    for (let i = 0; i < data.length; i += 4) {
      data[i] = table[data[i]!]!;
      data[i + 1] = table[data[i + 1]!]!;
      data[i + 2] = table[data[i + 2]!]!;
    }
    return image;
  }
  const m = [
    0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
    0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
    0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s,
  ] as const;
  for (let i = 0; i < data.length; i += 4) {
    const r = table[data[i]!]!;
    const g = table[data[i + 1]!]!;
    const bl = table[data[i + 2]!]!;
    data[i] = m[0] * r + m[1] * g + m[2] * bl;
    data[i + 1] = m[3] * r + m[4] * g + m[5] * bl;
    data[i + 2] = m[6] * r + m[7] * g + m[8] * bl;
  }
  return image;
}

export function parseHexColour(hex: string): [number, number, number] {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return [255, 255, 255];
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

/** Composites onto an opaque background colour, in place: for outputs without alpha. */
export function flatten(image: RawImage, backgroundHex: string): RawImage {
  const [br, bg, bb] = parseHexColour(backgroundHex);
  const data = image.data;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3]!;
    if (alpha === 255) continue;
    const a = alpha / 255;
    data[i] = data[i]! * a + br * (1 - a);
    data[i + 1] = data[i + 1]! * a + bg * (1 - a);
    data[i + 2] = data[i + 2]! * a + bb * (1 - a);
    data[i + 3] = 255;
  }
  return image;
}

/** Half the width and height (rounded up), each pixel the mean of the 2 × 2 it covers (the last row or column repeated). */
export function halveSize(image: RawImage): RawImage {
  const { width, height, data } = image;
  const out = createRawImage(Math.ceil(width / 2), Math.ceil(height / 2));
  for (let oy = 0; oy < out.height; oy++) {
    const row0 = 2 * oy * width, row1 = Math.min(2 * oy + 1, height - 1) * width;
    for (let ox = 0; ox < out.width; ox++) {
      const x0 = 2 * ox, x1 = Math.min(2 * ox + 1, width - 1);
      const o = (oy * out.width + ox) * 4;
      for (let c = 0; c < 4; c++) out.data[o + c] = (data[(row0 + x0) * 4 + c]! + data[(row0 + x1) * 4 + c]! + data[(row1 + x0) * 4 + c]! + data[(row1 + x1) * 4 + c]! + 2) >> 2;
    }
  }
  return out;
}
