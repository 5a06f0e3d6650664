import type { SourceHeader } from '../../core/contract.ts';
import { orientationOfTurn, UPRIGHT, type Orientation } from '../../core/orientation.ts';
import { bitmapToPixels } from './bitmap-pixels.ts';
import { orientationLeftByBrowser } from './browser-orientation.ts';
import { uprightPixels } from './pixels.ts';
import { toImageData, createRawImage, handedToBrowser, type RawImage } from '../../core/raw-image.ts';

// The pictures the page shows (scaled-decode.ts), upright: loaded by a preview worker with the first frame decoded at
// a scale or the first source not stored upright, not at its start.

/**
 * The browser's bitmap of a source, upright: as it is where the browser applied the source's orientation, else
 * its pixels turned as the header says (a WebP's EXIF in Chromium, an AVIF's irot in WebKitGTK).
 */
export async function uprightBitmap(bitmap: ImageBitmap, source: SourceHeader): Promise<ImageBitmap> {
  const left = await orientationLeftByBrowser(source.format, source.orientation);
  if (left === UPRIGHT) return bitmap;
  return turnedBitmap(await bitmapToPixels(bitmap), left);
}

/** Stored pixels as a bitmap shown upright. */
const turnedBitmap = (stored: RawImage, orientation: Orientation) => createImageBitmap(toImageData(uprightPixels(stored, orientation)));

/** What a VideoFrame says of how its pixels are shown (WebCodecs; absent from older engines and TypeScript's DOM types). */
type FrameTurn = Partial<{ rotation: number; flip: boolean }>;

/**
 * An ImageDecoder's frame as an upright bitmap: as it is where its pixels are stored upright, else its stored pixels
 * turned by uprightPixels, as the frame says. Not createImageBitmap(frame) for a turned frame: Chromium 156 applied a
 * JPEG's frame's rotation only sometimes (the same EXIF 8 file came out turned or not with the size asked for) and an
 * AVIF's never, so a portrait's preview lay on its side.
 */
export async function uprightFrameBitmap(frame: VideoFrame): Promise<ImageBitmap> {
  const { rotation = 0, flip = false } = frame as VideoFrame & FrameTurn;
  const orientation = orientationOfTurn(rotation, flip);
  if (orientation === UPRIGHT) return createImageBitmap(frame);
  const { x, y, width, height } = frame.visibleRect ?? { x: 0, y: 0, width: frame.codedWidth, height: frame.codedHeight };
  const stored = createRawImage(width, height);
  handedToBrowser(stored);
  await frame.copyTo(stored.data, { format: 'RGBA', rect: { x, y, width, height }, layout: [{ offset: 0, stride: width * 4 }] } as VideoFrameCopyToOptions);
  return turnedBitmap(stored, orientation);
}
