import { CONVERSION_ERRORS } from '../../contract';
import type { RawImage } from '../raw-image';

export function toImageData(image: RawImage): ImageData {
  return image instanceof ImageData ? image : new ImageData(image.data as Uint8ClampedArray<ArrayBuffer>, image.width, image.height);
}

/**
 * The browser's own encoder: `paint` fills a width × height OffscreenCanvas, which is then exported; null when the
 * browser does not encode this type (an unsupported type silently comes back as PNG, so the type is checked).
 */
async function encodeCanvas(
  width: number,
  height: number,
  paint: (context: OffscreenCanvasRenderingContext2D) => void,
  mimeType: string,
  quality?: number,
): Promise<ArrayBuffer | null> {
  if (typeof OffscreenCanvas === 'undefined') return null;
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error(CONVERSION_ERRORS.canvas);
  paint(context);
  const blob = await canvas.convertToBlob({ type: mimeType, quality }).catch(() => {
    throw new Error(CONVERSION_ERRORS.blob);
  });
  return blob.type === mimeType ? blob.arrayBuffer() : null;
}

/**
 * The browser's encoder straight from a decoded bitmap (no pixel read-back), flattened onto `background` when
 * given; null when the browser does not encode this type. The caller keeps (and closes) the bitmap.
 */
export function encodeBitmapWithCanvas(bitmap: ImageBitmap, mimeType: string, quality: number, background: string | null): Promise<ArrayBuffer | null> {
  return encodeCanvas(
    bitmap.width,
    bitmap.height,
    (context) => {
      if (background) {
        context.fillStyle = background;
        context.fillRect(0, 0, bitmap.width, bitmap.height);
      }
      context.drawImage(bitmap, 0, 0);
    },
    mimeType,
    quality,
  );
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

/** The browser's encoder when not optimising and it supports the type; the WASM encoder otherwise. */
export async function encodeNativeOrWasm(
  image: RawImage,
  mimeType: string,
  { quality, optimise }: { quality?: number; optimise: boolean },
  wasm: () => Promise<ArrayBuffer>,
): Promise<ArrayBuffer> {
  const native = optimise ? null : await encodeCanvas(image.width, image.height, (context) => context.putImageData(toImageData(image), 0, 0), mimeType, quality);
  return native ?? wasmEncode(wasm);
}
