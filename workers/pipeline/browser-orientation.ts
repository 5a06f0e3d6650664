import { orientationExif } from '../../core/exif.ts';
import type { SourceFormat } from '../../core/formats.ts';
import type { Orientation } from '../../core/orientation.ts';
import { UPRIGHT } from '../../core/orientation.ts';
import { jpegMetadata } from '../../wasm/jpeg/exif.ts';
import { pngMetadata } from '../../wasm/png/exif.ts';
import { webpMetadata } from '../../wasm/webp/exif.ts';

/**
 * Whether the browser's decoder shows a format as its orientation says. Engines differ: Chromium 156 applies a JPEG's
 * and a PNG's EXIF Orientation and an AVIF's irot and imir, but not a WebP's EXIF; WebKitGTK 2.50 does not apply an
 * AVIF's irot (tests/e2e/routes.spec.ts and the engines' route scenarios found both). So for each format whose
 * orientation a decoder may drop
 * it is asked once per worker: a 2 × 1 picture of the format, turned a quarter by its own orientation, is decoded and
 * comes back 1 × 2 where the engine applies it. A TIFF's tag and a JPEG XL codestream's are left to the decoder:
 * only Safari's decodes them (Apple's ImageIO applies both), and elsewhere their WASM decoder comes in.
 */

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

/** A 2 × 1 lossless WebP (cwebp -lossless): a canvas in an engine without a WebP encoder cannot make one. */
export const TINY_WEBP = bytesOf('UklGRhwAAABXRUJQVlA4TA8AAAAvAQAAAAcQ/Y/+ByKi/wEA');

/** A 2 × 1 AVIF with `irot` 1, a quarter turn (avifenc --irot 1): no canvas writes AVIF. */
export const TINY_AVIF_TURNED = bytesOf(
  'AAAAIGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZk1BMUEAAAD8bWV0YQAAAAAAAAAoaGRscgAAAAAAAAAAcGljdAAAAAAAAAAAAAAAAGxpYmF2aWYAAAAADnBpdG0AAAAAAAEAAAAeaWxvYwAAAABEAAABAAEAAAABAAABJAAAAB0AAAAoaWluZgAAAAAAAQAAABppbmZlAgAAAAABAABhdjAxQ29sb3IAAAAAdGlwcnAAAABUaXBjbwAAABRpc3BlAAAAAAAAAAIAAAABAAAAEHBpeGkAAAAAAwgICAAAAAxhdjFDgSAAAAAAABNjb2xybmNseAABAA0ABoAAAAAJaXJvdAEAAAAYaXBtYQAAAAAAAAABAAEFAQKDBIUAAAAlbWRhdBIACgc4ACYQENBpMhAYwA0000QAALATV9ZBNgPA',
);

/** A 2 × 1 HEIC with `irot` 1 (heif-enc, the irot added as tests/fixtures/heif-transforms.ts adds it), for an engine that decodes HEIC. */
export const TINY_HEIC_TURNED = bytesOf(
  'AAAAGGZ0eXBoZWljAAAAAG1pZjFoZWljAAABtm1ldGEAAAAAAAAAIWhkbHIAAAAAAAAAAHBpY3QAAAAAAAAAAAAAAAAAAAAADnBpdG0AAAAAAAIAAAAQaWRhdAAAAAAAAgABAAAAOGlsb2MBAAAAREAAAgABAAAAAAAAAdYAAQAAAAAAAAA8AAIAAQAAAAAAAAABAAAAAAAAAAgAAAA4aWluZgAAAAAAAgAAABVpbmZlAgAAAQABAABodmMxAAAAABVpbmZlAgAAAAACAABncmlkAAAAAOFpcHJwAAAAvmlwY28AAAB1aHZjQwEECAAAAAAAAAAAAB7wAPz9+voAAA8DIAABABdAAQwB//8ECAAAAwCduAAAAwAAHroCQCEAAQAqQgEBBAgAAAMAnbgAAAMAAB6gIIEE2W6q6a5uBAQMCAAAAwAIAAADAAhAIgABAAZEAcFzwYkAAAAUaXNwZQAAAAAAAABAAAAAQAAAABRpc3BlAAAAAAAAAAIAAAABAAAAEHBpeGkAAAAAAwoKCgAAAAlpcm90AQAAABtpcG1hAAAAAAAAAAIAAQKBAgACAwOEhQAAABppcmVmAAAAAAAAAA5kaW1nAAIAAQABAAAARG1kYXQAAAA4KAGvEyF8YkDlN2vQuX+I0ZDJkJ71CPq4bLUYs1v5/X1nl7hxczT68zN5//7WSOOlZJxXpLJjePA=',
);

async function fromCanvas(type: string): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(2, 1);
  canvas.getContext('2d')!.fillRect(0, 0, 2, 1);
  return new Uint8Array(await (await canvas.convertToBlob({ type })).arrayBuffer());
}

/** Each format whose decoders differ: its 2 × 1 picture, turned a quarter by an EXIF Orientation 6 or an irot. */
const TURNED: Partial<Record<SourceFormat, () => Promise<Blob>>> = {
  jpeg: async () => new Blob([jpegMetadata.writeExif!(await fromCanvas('image/jpeg'), orientationExif(6), { width: 2, height: 1 }) as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }),
  png: async () => new Blob([pngMetadata.writeExif!(await fromCanvas('image/png'), orientationExif(6), { width: 2, height: 1 }) as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
  webp: async () => new Blob([webpMetadata.writeExif!(TINY_WEBP, orientationExif(6), { width: 2, height: 1 }) as Uint8Array<ArrayBuffer>], { type: 'image/webp' }),
  avif: async () => new Blob([TINY_AVIF_TURNED], { type: 'image/avif' }),
  heic: async () => new Blob([TINY_HEIC_TURNED], { type: 'image/heic' }),
};

const asked = new Map<SourceFormat, Promise<boolean>>();

async function appliesOrientation(format: SourceFormat): Promise<boolean> {
  const turned = TURNED[format];
  if (!turned) return true;
  try {
    const bitmap = await createImageBitmap(await turned(), { imageOrientation: 'from-image' });
    const applied = bitmap.width === 1 && bitmap.height === 2;
    bitmap.close();
    return applied;
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
