import decodeAvif from '@jsquash/avif/decode';
import decodeJpeg from '@jsquash/jpeg/decode';
import decodePng from '@jsquash/png/decode';
import decodeWebp from '@jsquash/webp/decode';
import { CONVERSION_ERRORS, type ImageFormat } from '../contract';
import { exifOrientation, readExif } from './metadata';
import { applyExifOrientation } from './pixels';
import type { RawImage } from './raw-image';

/**
 * The browser's decoder: fast, EXIF orientation and colour management applied; null when the browser cannot
 * decode the format. Premultiplied, as a 2D canvas stores pixels anyway: asking for straight alpha bought no
 * precision on the way through a canvas and cost ~25 ms per 12 MP photo (measured in a worker).
 */
export async function decodeToBitmap(file: Blob): Promise<ImageBitmap | null> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image', colorSpaceConversion: 'default' });
  } catch {
    return null;
  }
}

/** The bitmap's pixels as sRGB RGBA; the bitmap is closed. */
export function bitmapToPixels(bitmap: ImageBitmap): RawImage {
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error(CONVERSION_ERRORS.canvas);
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height, { colorSpace: 'srgb' });
  } finally {
    bitmap.close();
  }
}

const WASM_DECODERS: Record<ImageFormat, (buffer: ArrayBuffer) => Promise<ImageData | null>> = {
  jpeg: (buffer) => decodeJpeg(buffer),
  png: (buffer) => decodePng(buffer),
  webp: (buffer) => decodeWebp(buffer),
  avif: (buffer) => decodeAvif(buffer),
};

/** jSquash's decoders, for formats this browser cannot decode (AVIF on older Safari, for one). */
export async function decodeWithWasm(file: Blob, format: ImageFormat): Promise<RawImage | null> {
  const buffer = await file.arrayBuffer();
  const bytes = new Uint8Array(buffer.slice(0));
  const image = await WASM_DECODERS[format](buffer).catch(() => null);
  if (!image) return null;
  const exif = readExif(bytes, format);
  return exif ? applyExifOrientation(image, exifOrientation(exif)) : image;
}

/**
 * Runs a decode while no other worker decodes. Decoding a 12 MP photo allocates ~100 MB in a burst; three at
 * once starve the UI thread on a small machine, while decodes are a small part of a conversion, so taking turns
 * costs the batch little. Web Locks are shared by every worker of the page; without them, no waiting.
 */
export function oneDecodeAtATime<T>(decodeStep: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? locks.request('pixel-converter-decode', decodeStep) : decodeStep();
}
