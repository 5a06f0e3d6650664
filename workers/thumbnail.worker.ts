import * as Comlink from 'comlink';
import type { ThumbnailRequest } from './contract';

/**
 * Small previews for the Selected Files grid. Decoding and downscaling happen here so a 12 MP photo
 * never becomes a full-size <img> on the UI thread.
 */
async function thumbnail({ file, maxEdge }: ThumbnailRequest): Promise<Blob> {
  const probe = await createImageBitmap(file, { imageOrientation: 'from-image', resizeWidth: maxEdge, resizeQuality: 'medium' });
  // resizeWidth alone keeps the ratio; a tall portrait would exceed maxEdge in height, so scale once more.
  const scale = Math.min(1, maxEdge / Math.max(probe.width, probe.height));
  const width = Math.max(1, Math.round(probe.width * scale));
  const height = Math.max(1, Math.round(probe.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Failed to get canvas context');
  context.drawImage(probe, 0, 0, width, height);
  probe.close();
  return canvas.convertToBlob({ type: 'image/webp', quality: 0.75 });
}

const api = { thumbnail };
export type ThumbnailWorkerApi = typeof api;
Comlink.expose(api);
