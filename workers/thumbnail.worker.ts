import * as Comlink from 'comlink';
import type { SourceHeader, ThumbnailRequest, ThumbnailWorkerApi, ViewRequest } from '../core/contract';
import { formatInfo } from '../core/formats';
import { framedView } from './pipeline/framed-view';
import { decodeScaledBitmap } from './pipeline/scaled-decode';

/**
 * The pictures the page shows of an image: small previews for the Selected Files grid, and the compare view's
 * pictures. Decoding and downscaling happen here so a 12 MP photo never becomes a full-size image on the UI thread.
 */

/**
 * Decodes near the preview's size where the browser can (a 12 MP JPEG decodes at 1/8 in the DCT, in a fraction of
 * the time and memory; other formats decode whole), at twice the preview's edge so the downscale below stays sharp.
 */
async function decodeNear(file: Blob, source: SourceHeader, edge: number): Promise<ImageBitmap | null> {
  const scale = Math.min(1, (2 * edge) / Math.max(source.size.width, source.size.height));
  return decodeScaledBitmap(file, formatInfo(source.format).mimeType, source.size, scale);
}

async function thumbnail({ file, source: header, maxEdge }: ThumbnailRequest): Promise<Blob> {
  const source = (await decodeNear(file, header, maxEdge).catch(() => null)) ?? (await createImageBitmap(file, { imageOrientation: 'from-image' }));
  const scale = Math.min(1, maxEdge / Math.max(source.width, source.height));
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Failed to get canvas context');
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
