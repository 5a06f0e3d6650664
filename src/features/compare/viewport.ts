import type { Rect, Size } from '../../../core/geometry.ts';

/**
 * Where the compare view looks: a zoom (CSS pixels per output pixel) and the output pixel at the viewport's centre.
 * Both pictures (the original as the output frames it, and the output) are drawn in the output's pixels, so one
 * viewport serves both sides of the divider.
 */
export interface Viewport {
  zoom: number;
  centre: { x: number; y: number };
}

/** The zoom that shows the whole image in the viewport. */
export const fitZoom = (image: Size, view: Size): number => Math.min(view.width / image.width, view.height / image.height);

/**
 * The zoom at which one output pixel is one device pixel ("1:1"); at least the fit, so a small image's 1:1 is its fit.
 */
export const actualSizeZoom = (image: Size, view: Size, devicePixelRatio: number): number => Math.max(fitZoom(image, view), 1 / devicePixelRatio);

export const fitted = (image: Size, view: Size): Viewport => ({ zoom: fitZoom(image, view), centre: { x: image.width / 2, y: image.height / 2 } });

/** Keeps the zoom between the fit and 1:1, and the image covering the viewport wherever it is larger than it. */
export function clampViewport({ zoom, centre }: Viewport, image: Size, view: Size, devicePixelRatio: number): Viewport {
  const z = Math.min(actualSizeZoom(image, view, devicePixelRatio), Math.max(fitZoom(image, view), zoom));
  const axis = (c: number, imageLength: number, viewLength: number) => {
    const half = viewLength / (2 * z);
    return imageLength <= 2 * half ? imageLength / 2 : Math.min(imageLength - half, Math.max(half, c));
  };
  return { zoom: z, centre: { x: axis(centre.x, image.width, view.width), y: axis(centre.y, image.height, view.height) } };
}

/** Zooms by `factor` about a point of the viewport (CSS pixels from its top-left), which keeps showing the same image point. */
export function zoomAbout(viewport: Viewport, factor: number, point: { x: number; y: number }, image: Size, view: Size, devicePixelRatio: number): Viewport {
  const before = toImage(viewport, point, view);
  const zoomed = clampViewport({ ...viewport, zoom: viewport.zoom * factor }, image, view, devicePixelRatio);
  // The point stays put: the centre moves by what the point's offset from the centre now spans in image pixels.
  const centre = { x: before.x - (point.x - view.width / 2) / zoomed.zoom, y: before.y - (point.y - view.height / 2) / zoomed.zoom };
  return clampViewport({ zoom: zoomed.zoom, centre }, image, view, devicePixelRatio);
}

/** Moves the view by a drag of (dx, dy) CSS pixels: the image follows the finger. */
export function panBy(viewport: Viewport, dx: number, dy: number, image: Size, view: Size, devicePixelRatio: number): Viewport {
  return clampViewport({ zoom: viewport.zoom, centre: { x: viewport.centre.x - dx / viewport.zoom, y: viewport.centre.y - dy / viewport.zoom } }, image, view, devicePixelRatio);
}

/** The image point under a viewport point. */
export function toImage({ zoom, centre }: Viewport, point: { x: number; y: number }, view: Size): { x: number; y: number } {
  return { x: centre.x + (point.x - view.width / 2) / zoom, y: centre.y + (point.y - view.height / 2) / zoom };
}

/** The part of the image in the viewport, in whole output pixels, inside the image. */
export function visibleRect({ zoom, centre }: Viewport, image: Size, view: Size): Rect {
  const x = Math.max(0, Math.floor(centre.x - view.width / (2 * zoom)));
  const y = Math.max(0, Math.floor(centre.y - view.height / (2 * zoom)));
  const right = Math.min(image.width, Math.ceil(centre.x + view.width / (2 * zoom)));
  const bottom = Math.min(image.height, Math.ceil(centre.y + view.height / (2 * zoom)));
  return { x, y, width: Math.max(1, right - x), height: Math.max(1, bottom - y) };
}

/** A rectangle of the output's pixels in another image's pixels (the framed original), `scale` of them per output pixel. */
export const scaledRect = (rect: Rect, scale: number): Rect => ({ x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale });
