import { CONVERSION_ERRORS } from '../../contract';
import type { RawImage } from '../raw-image';

export function toImageData(image: RawImage): ImageData {
  return image instanceof ImageData ? image : new ImageData(image.data as Uint8ClampedArray<ArrayBuffer>, image.width, image.height);
}

/**
 * The browser's own encoder through OffscreenCanvas, or null when it does not encode this type
 * (an unsupported type silently comes back as PNG, so the returned type is checked).
 */
export async function encodeWithCanvas(image: RawImage, mimeType: string, quality?: number): Promise<ArrayBuffer | null> {
  if (typeof OffscreenCanvas === 'undefined') return null;
  const canvas = new OffscreenCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error(CONVERSION_ERRORS.canvas);
  context.putImageData(toImageData(image), 0, 0);
  let blob: Blob;
  try {
    blob = await canvas.convertToBlob({ type: mimeType, quality });
  } catch {
    throw new Error(CONVERSION_ERRORS.blob);
  }
  return blob.type === mimeType ? blob.arrayBuffer() : null;
}

/** Runs a WASM encoder, reporting its failure with the catalogue's message. */
export async function wasmEncode(run: () => Promise<ArrayBuffer>): Promise<ArrayBuffer> {
  try {
    return await run();
  } catch (error) {
    console.error('WASM encoder failed', error);
    throw new Error(CONVERSION_ERRORS.compression);
  }
}
