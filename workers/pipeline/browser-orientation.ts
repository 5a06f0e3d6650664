import { orientationExif } from '../../core/exif';
import type { SourceFormat } from '../../core/formats';
import type { Orientation } from '../../core/orientation';
import { UPRIGHT } from '../../core/orientation';
import { jpegMetadata } from '../../wasm/jpeg/exif';
import { pngMetadata } from '../../wasm/png/exif';
import { webpMetadata } from '../../wasm/webp/exif';

/**
 * Whether the browser's decoder shows a format as its orientation says. HEIF's `irot` and `imir`, a TIFF's Orientation
 * and a JPEG XL codestream's are the image's own, applied by any decoder of it; an EXIF Orientation inside a JPEG, PNG
 * or WebP is applied by some engines and not others (Chromium 156 turns a JPEG and a PNG, not a WebP). So for those
 * three it is asked once per worker: a 2 × 1 picture of the format tagged with Orientation 6 is decoded, and comes
 * back 1 × 2 where the engine applies it.
 */

/** A 2 × 1 lossless WebP (cwebp -lossless): a canvas in an engine without a WebP encoder cannot make one. */
const TINY_WEBP = Uint8Array.from(atob('UklGRhwAAABXRUJQVlA4TA8AAAAvAQAAAAcQ/Y/+ByKi/wEA'), (c) => c.charCodeAt(0));

async function fromCanvas(type: string): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(2, 1);
  canvas.getContext('2d')!.fillRect(0, 0, 2, 1);
  return new Uint8Array(await (await canvas.convertToBlob({ type })).arrayBuffer());
}

/** Each EXIF-carrying format: its 2 × 1 picture tagged with Orientation 6. */
const TAGGED: Partial<Record<SourceFormat, () => Promise<Blob>>> = {
  jpeg: async () => new Blob([jpegMetadata.writeExif!(await fromCanvas('image/jpeg'), orientationExif(6), { width: 2, height: 1 }) as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }),
  png: async () => new Blob([pngMetadata.writeExif!(await fromCanvas('image/png'), orientationExif(6), { width: 2, height: 1 }) as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
  webp: async () => new Blob([webpMetadata.writeExif!(TINY_WEBP, orientationExif(6), { width: 2, height: 1 }) as Uint8Array<ArrayBuffer>], { type: 'image/webp' }),
};

const asked = new Map<SourceFormat, Promise<boolean>>();

async function appliesOrientation(format: SourceFormat): Promise<boolean> {
  const tagged = TAGGED[format];
  if (!tagged) return true;
  try {
    const bitmap = await createImageBitmap(await tagged(), { imageOrientation: 'from-image' });
    const turned = bitmap.width === 1 && bitmap.height === 2;
    bitmap.close();
    return turned;
  } catch {
    // Not decoded at all: the format goes to its WASM decoder, which the pipeline orients itself.
    return true;
  }
}

/**
 * The orientation still to apply to what the browser's decoder gives of a source shown `orientation`: none where the
 * decoder applied it, all of it where it did not (what it gave is the stored pixels).
 */
export async function orientationLeftByBrowser(format: SourceFormat, orientation: Orientation): Promise<Orientation> {
  if (orientation === UPRIGHT) return UPRIGHT;
  let answer = asked.get(format);
  if (!answer) asked.set(format, (answer = appliesOrientation(format)));
  return (await answer) ? UPRIGHT : orientation;
}
