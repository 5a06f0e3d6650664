import type { Orientation } from '../../core/orientation.ts';
import type { SourceCodec } from '../../wasm/index.ts';
import { uprightPixels } from './pixels.ts';
import type { RawImage } from '../../core/raw-image.ts';

/**
 * The browser's decoder: fast, EXIF orientation and colour management applied; null when the browser cannot
 * decode the format. Premultiplied, as a 2D canvas stores pixels anyway: straight alpha bought no precision on the
 * way through a canvas and cost more time (docs/decisions/browser-or-wasm-encoder.md).
 */
export async function decodeToBitmap(file: Blob): Promise<ImageBitmap | null> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image', colorSpaceConversion: 'default' });
  } catch {
    return null;
  }
}

/**
 * The format's WASM decoder, for files this browser cannot decode (HEIC, TIFF and JPEG XL outside Safari, AVIF on older
 * Safari), made upright: by the decoder where it applies the image's own orientation (libheif, libjxl), else here, as
 * the header read on the page says (the worker reads no header: a HEIC's EXIF Orientation beside its irot is never
 * applied).
 */
export async function decodeWithWasm(buffer: ArrayBuffer, codec: SourceCodec, orientation: Orientation): Promise<RawImage | null> {
  const image = await codec.decode(buffer).catch(() => null);
  return image && (codec.decodesUpright ? image : uprightPixels(image, orientation));
}

/**
 * Runs a decode while no other worker decodes: on a small device (core/memory.ts decodesTakeTurns). Decoding a 12 MP
 * photo allocates ~100 MB in a burst; three at once starve the UI thread on a small machine, and one job at a time
 * runs there anyway once the pixels are out. Web Locks are shared by every worker of the page; without them, no
 * waiting.
 */
export function oneDecodeAtATime<T>(decodeStep: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  return locks ? locks.request('pixel-converter-decode', decodeStep) : decodeStep();
}
