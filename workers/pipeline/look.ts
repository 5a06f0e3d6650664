import type { Rect, Size } from '../../core/geometry.ts';
import { LOOK_GRID } from '../../core/look.ts';
import { CONVERSION_ERRORS } from '../../core/messages.ts';
import { releaseCanvas } from './canvas-encoder.ts';
import { createRawImage, type RawImage } from '../../core/raw-image.ts';

/**
 * How an output looks beside the source as it frames it, judged on a view small enough to cost little: a grid of
 * tiles at full resolution, spread over the image, side by side (docs/decisions/perceptual-score.md). Full resolution,
 * because what an encoder loses shows at 1:1 (a view scaled down hides its blocks and ringing); tiles on the 16-pixel
 * grid of JPEG's and WebP's macroblocks, so a tile cut from a whole encode holds the same blocks the encoder made.
 */

/** Where each tile sits in the view: in rows of LOOK_GRID, in the order lookTiles gives them. */
function viewLayout(tiles: readonly Rect[]): { size: Size; places: { x: number; y: number }[] } {
  const columns = Math.min(LOOK_GRID, tiles.length);
  const places = tiles.map((tile, i) => ({ x: (i % columns) * tile.width, y: Math.floor(i / columns) * tile.height }));
  const width = Math.max(...tiles.map((tile, i) => places[i]!.x + tile.width));
  const height = Math.max(...tiles.map((tile, i) => places[i]!.y + tile.height));
  return { size: { width, height }, places };
}

/** The view of decoded pixels: its tiles side by side. */
export function lookView(image: RawImage, tiles: readonly Rect[]): RawImage {
  const { size, places } = viewLayout(tiles);
  const view = createRawImage(size.width, size.height);
  tiles.forEach((tile, i) => {
    const place = places[i]!;
    for (let y = 0; y < tile.height; y++) {
      const from = ((tile.y + y) * image.width + tile.x) * 4;
      view.data.set(image.data.subarray(from, from + tile.width * 4), ((place.y + y) * size.width + place.x) * 4);
    }
  });
  return view;
}

/**
 * The view of a bitmap (the browser's decode), its tiles drawn into one small canvas: only the view's pixels are read
 * out, not the whole image's. Over `background` when given (an output without alpha was flattened onto it).
 */
export function lookViewOfBitmap(bitmap: ImageBitmap | OffscreenCanvas, tiles: readonly Rect[], background: string | null): RawImage {
  const { size, places } = viewLayout(tiles);
  const canvas = new OffscreenCanvas(size.width, size.height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error(CONVERSION_ERRORS.canvas);
  if (background) {
    context.fillStyle = background;
    context.fillRect(0, 0, size.width, size.height);
  }
  tiles.forEach((tile, i) => context.drawImage(bitmap, tile.x, tile.y, tile.width, tile.height, places[i]!.x, places[i]!.y, tile.width, tile.height));
  const { data } = context.getImageData(0, 0, size.width, size.height);
  releaseCanvas(canvas);
  return { data, width: size.width, height: size.height };
}
