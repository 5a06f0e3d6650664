import * as Comlink from 'comlink';
import type { ThumbnailRequest, ThumbnailWorkerApi, ViewRequest } from '../core/contract.ts';
import { CONVERSION_ERRORS } from '../core/messages.ts';
import { framedView } from './pipeline/framed-view.ts';
import { bitmapNearScale } from './pipeline/shown-bitmap.ts';

/**
 * The pictures the page shows of an image: small previews for the Selected Files grid, and the compare view's
 * pictures. Decoding and downscaling happen here so a 12 MP photo never becomes a full-size image on the UI thread.
 */

async function thumbnail({ file, source: header, maxEdge }: ThumbnailRequest): Promise<Blob> {
  // Decoded at twice the preview's edge where the browser can (a 12 MP JPEG at 1/8 in the DCT, in a fraction of the
  // time and memory), so the downscale below stays sharp; where it cannot decode the file, from the thumbnail the file
  // carries if it is as large as the preview (an iPhone HEIC's 320 × 240), else from the whole image.
  const source = await bitmapNearScale(file, header, Math.min(1, (2 * maxEdge) / Math.max(header.size.width, header.size.height)), maxEdge);
  const scale = Math.min(1, maxEdge / Math.max(source.width, source.height));
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error(CONVERSION_ERRORS.canvas);
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, width, height);
  source.close();
  return canvas.convertToBlob({ type: 'image/webp', quality: 0.75 });
}

/** Transferred, not copied: the page draws it as it is. */
async function view(request: ViewRequest): Promise<ImageBitmap> {
  const bitmap = await framedView(request);
  return Comlink.transfer(bitmap, [bitmap]);
}

const api: ThumbnailWorkerApi = { thumbnail, view };
Comlink.expose(api);
