/** An ImageData-shaped RGBA buffer (non-premultiplied, sRGB) that plain Node tests can build too. */
export interface RawImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** The image as the browser's ImageData (the same pixels, no copy), for a canvas or a codec that takes one. */
export function toImageData(image: RawImage): ImageData {
  if (image instanceof ImageData) return image;
  handedToBrowser(image);
  return new ImageData(image.data as Uint8ClampedArray<ArrayBuffer>, image.width, image.height);
}

/**
 * The pixel buffers made by createRawImage and not handed to the browser since: plain buffers of this app's own, which
 * releasePixels may free. Not an ImageData's (freed early, V8 stops counting the bytes the ImageData still holds and
 * collects it later: the batch's peak grew, docs/decisions/memory-budget.md), nor a view of a WASM heap.
 */
const ownBuffers = new WeakSet<ArrayBufferLike>();

export function createRawImage(width: number, height: number): RawImage {
  const data = new Uint8ClampedArray(width * height * 4);
  ownBuffers.add(data.buffer);
  return { data, width, height };
}

/**
 * The browser was handed these pixels (an ImageData made on them, a VideoFrame's copyTo into them): its own object may
 * hold the bytes beyond the buffer's end, so releasePixels leaves them to the garbage collector.
 */
export function handedToBrowser(image: RawImage): void {
  ownBuffers.delete(image.data.buffer);
}

/** Whether releasePixels would free this image's pixels: they are a createRawImage's, not yet released. */
export function ownsPixels(image: RawImage): boolean {
  return ownBuffers.has(image.data.buffer);
}

/**
 * Frees an image's pixels now, where the caller knows nothing reads them again, instead of at the worker's next
 * garbage collection: a 12 MP photo's 48 MB, which a long batch otherwise piles up two or three deep between
 * collections (the crest its peak memory rides on, docs/decisions/memory-budget.md). Only createRawImage's buffers,
 * and only where the engine can shrink a buffer in place (`ArrayBuffer.prototype.transfer`); the image is empty after.
 */
export function releasePixels(image: RawImage): void {
  const buffer = image.data.buffer;
  if (!ownBuffers.delete(buffer)) return;
  (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
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
