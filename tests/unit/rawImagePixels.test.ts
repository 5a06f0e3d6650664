import { describe, expect, it } from 'vitest';
import { createRawImage, handedToBrowser, ownsPixels, releasePixels } from '../../core/raw-image.ts';

/** Whether the engine can free a buffer in place (ArrayBuffer.prototype.transfer: Chromium 114, Firefox 122, Safari 17.4, Node 21). */
const canFree = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function';

describe('raw image pixels: which ones the pipeline may free at once', () => {
  it('owns the pixels createRawImage made, until they are released or handed to the browser', () => {
    const released = createRawImage(4, 2);
    const handed = createRawImage(4, 2);
    expect(ownsPixels(released)).toBe(true);
    expect(ownsPixels(handed)).toBe(true);
    releasePixels(released);
    handedToBrowser(handed);
    expect(ownsPixels(released)).toBe(false);
    expect(ownsPixels(handed)).toBe(false);
  });

  it('leaves pixels it did not make as they are: a WASM heap view, a decoder\'s array, pixels handed to the browser', () => {
    const heap = new Uint8ClampedArray(64);
    const foreign = { data: heap.subarray(0, 32), width: 4, height: 2 };
    const handed = createRawImage(4, 2);
    handed.data.fill(7);
    handedToBrowser(handed);
    releasePixels(foreign);
    releasePixels(handed);
    expect(heap.byteLength).toBe(64);
    expect(foreign.data.length).toBe(32);
    expect(handed.data.length).toBe(32);
    expect(handed.data[31]).toBe(7);
  });

  it('frees released pixels where the engine can, once, and a second release does nothing', () => {
    const image = createRawImage(4, 2);
    releasePixels(image);
    expect(image.data.length).toBe(canFree ? 0 : 32);
    expect(() => releasePixels(image)).not.toThrow();
  });
});
