/** An ImageData-shaped RGBA buffer (non-premultiplied, sRGB) that plain Node tests can build too. */
export interface RawImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** The image as the browser's ImageData (the same pixels, no copy), for a canvas or a codec that takes one. */
export function toImageData(image: RawImage): ImageData {
  return image instanceof ImageData ? image : new ImageData(image.data as Uint8ClampedArray<ArrayBuffer>, image.width, image.height);
}

export function createRawImage(width: number, height: number): RawImage {
  return { data: new Uint8ClampedArray(width * height * 4), width, height };
}

/**
 * An image read a strip of rows at a time, for an encoder that takes rows as it goes (jpegli): a decoded frame's rows
 * need not be copied out whole first (workers/pipeline/bitmap-pixels.ts).
 */
export interface PixelRows {
  width: number;
  height: number;
  /** Writes rows `y` to `y + count - 1` into `into` as RGBA (non-premultiplied, sRGB), `width * 4` bytes a row. */
  readRows(y: number, count: number, into: Uint8Array): void | Promise<void>;
}
