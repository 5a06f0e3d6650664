import { CONVERSION_ERRORS } from '../../core/messages.ts';
import { toImageData, type RawImage } from '../../core/raw-image.ts';
import type { Codec, EncodeOptions } from '../../wasm/codec.ts';

/**
 * Gives a canvas's pixels back now (a 12 MP canvas holds 48 MB), not when the worker next collects its garbage: a
 * worker allocates little on its own heap and collects rarely, so a batch's dead canvases piled up.
 */
export function releaseCanvas(canvas: OffscreenCanvas): void {
  canvas.width = 0;
  canvas.height = 0;
}

/** The canvas as `mimeType`; null when the browser gave another type (an unsupported one comes back as PNG). */
async function canvasBytes(canvas: OffscreenCanvas, mimeType: string, quality?: number): Promise<ArrayBuffer | null> {
  const blob = await canvas.convertToBlob({ type: mimeType, quality }).catch(() => {
    throw new Error(CONVERSION_ERRORS.blob);
  });
  return blob.type === mimeType ? blob.arrayBuffer() : null;
}

/** The canvas exported as `mimeType` (canvasBytes), then released. */
function exportCanvas(canvas: OffscreenCanvas, mimeType: string, quality?: number): Promise<ArrayBuffer | null> {
  return canvasBytes(canvas, mimeType, quality).finally(() => releaseCanvas(canvas));
}

/** A width × height OffscreenCanvas that `paint` fills. */
function paintCanvas(width: number, height: number, paint: (context: OffscreenCanvasRenderingContext2D) => void): OffscreenCanvas {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error(CONVERSION_ERRORS.canvas);
  paint(context);
  return canvas;
}

/** The browser's own encoder: `paint` fills a width × height OffscreenCanvas, which is then exported. */
async function encodeCanvas(
  width: number,
  height: number,
  paint: (context: OffscreenCanvasRenderingContext2D) => void,
  mimeType: string,
  quality?: number,
): Promise<ArrayBuffer | null> {
  if (typeof OffscreenCanvas === 'undefined') return null;
  return exportCanvas(paintCanvas(width, height, paint), mimeType, quality);
}

const canvasTypes = new Map<string, Promise<boolean>>();

/** Whether this browser's canvas encodes `mimeType`, asked once per type with a 1 × 1 canvas. */
function canvasEncodes(mimeType: string): Promise<boolean> {
  let answer = canvasTypes.get(mimeType);
  if (!answer) {
    answer = encodeCanvas(1, 1, () => {}, mimeType).then(
      (bytes) => bytes !== null,
      () => false,
    );
    canvasTypes.set(mimeType, answer);
  }
  return answer;
}

/**
 * The browser's encoder straight from a decoded bitmap (no pixel read-back); null when the browser does not encode
 * this type, and then the bitmap is untouched. The bitmap is drawn as it is shown: with a `background`, onto it
 * (flattening transparency). A bitmap whose pixels are stored as shown (`storedUpright`) and needs no background is
 * handed to the canvas as it is, without a copy: the same bytes out, in less time. Not a turned or mirrored one:
 * Chromium's bitmaprenderer keeps the stored pixels and drops how they are shown. The bitmap is used up either way;
 * the caller closes it.
 */
export async function encodeBitmapWithCanvas(
  bitmap: ImageBitmap,
  mimeType: string,
  quality: number,
  { background, storedUpright }: { background: string | null; storedUpright: boolean },
): Promise<ArrayBuffer | null> {
  if (!(await canvasEncodes(mimeType))) return null;
  if (background === null && storedUpright) {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const renderer = canvas.getContext('bitmaprenderer');
    if (renderer) {
      renderer.transferFromImageBitmap(bitmap);
      return exportCanvas(canvas, mimeType, quality);
    }
  }
  return encodeCanvas(bitmap.width, bitmap.height, (context) => drawShown(context, bitmap, background), mimeType, quality);
}

/** The bitmap drawn as it is shown, filling the canvas (scaled where the canvas is smaller), over `background` when given. */
export function drawShown(context: OffscreenCanvasRenderingContext2D, bitmap: ImageBitmap, background: string | null): void {
  const { width, height } = context.canvas;
  if (background) {
    context.fillStyle = background;
    context.fillRect(0, 0, width, height);
  }
  if (width === bitmap.width && height === bitmap.height) context.drawImage(bitmap, 0, 0);
  else {
    context.imageSmoothingQuality = 'medium';
    context.drawImage(bitmap, 0, 0, width, height);
  }
}

/** A canvas painted once and exported at as many qualities as asked: Smart compression's search on a bitmap. */
export interface PaintedCanvas {
  canvas: OffscreenCanvas;
  /** The canvas as the type asked, at `quality` (0–1). */
  encode(quality: number): Promise<ArrayBuffer>;
  release(): void;
}

/** A width × height canvas that `paint` fills, to export as `mimeType`; null where this browser's canvas does not encode the type. */
export async function paintedCanvas(width: number, height: number, paint: (context: OffscreenCanvasRenderingContext2D) => void, mimeType: string): Promise<PaintedCanvas | null> {
  if (typeof OffscreenCanvas === 'undefined' || !(await canvasEncodes(mimeType))) return null;
  const canvas = paintCanvas(width, height, paint);
  const encode = async (quality: number): Promise<ArrayBuffer> => {
    const bytes = await canvasBytes(canvas, mimeType, quality);
    if (!bytes) throw new Error(CONVERSION_ERRORS.blob);
    return bytes;
  };
  return { canvas, encode, release: () => releaseCanvas(canvas) };
}

/**
 * The plan's encoder for pixels (EncodeOptions.optimise names the WASM one): the browser's own, a canvas export, where
 * the plan chose it and this browser's canvas encodes the type; the codec's WASM encoder otherwise.
 */
export async function encodeImage(codec: Codec, image: RawImage, options: EncodeOptions): Promise<ArrayBuffer> {
  const { format } = codec;
  const native =
    options.optimise || !format.canvasEncoder
      ? null
      : await encodeCanvas(image.width, image.height, (context) => context.putImageData(toImageData(image), 0, 0), format.mimeType, format.quality ? options.quality : undefined);
  return native ?? codec.encode(image, options);
}
