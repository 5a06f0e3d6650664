import * as Comlink from 'comlink';
import type { ThumbnailRequest } from './contract';
import { formatInfo } from './formats';
import { probeImage } from './pipeline/probe';

/**
 * Small previews for the Selected Files grid. Decoding and downscaling happen here so a 12 MP photo never becomes
 * a full-size <img> on the UI thread.
 */

/**
 * Decodes near the preview's size where the browser can: WebCodecs' ImageDecoder takes a desired size, and
 * Chromium's JPEG decoder then scales in the DCT (a 12 MP photo decodes at 1/8, 500 × 375, in a fraction of the
 * time and memory); other formats decode whole. Asks for twice the preview's edge, as the decoder may pick a scale
 * one step below the size asked. The frame comes upright (EXIF orientation applied). Null where there is no
 * ImageDecoder or it cannot decode the type.
 */
async function decodeNear(file: Blob, edge: number): Promise<ImageBitmap | null> {
  if (typeof ImageDecoder === 'undefined') return null;
  const header = await probeImage(file);
  if (!header?.size) return null;
  const type = formatInfo(header.format).mimeType;
  if (!(await ImageDecoder.isTypeSupported(type))) return null;
  const scale = Math.min(1, (2 * edge) / Math.max(header.size.width, header.size.height));
  const decoder = new ImageDecoder({
    data: file.stream(),
    type,
    desiredWidth: Math.max(1, Math.round(header.size.width * scale)),
    desiredHeight: Math.max(1, Math.round(header.size.height * scale)),
  });
  try {
    const { image } = await decoder.decode();
    try {
      return await createImageBitmap(image);
    } finally {
      image.close();
    }
  } finally {
    decoder.close();
  }
}

async function thumbnail({ file, maxEdge }: ThumbnailRequest): Promise<Blob> {
  const source = (await decodeNear(file, maxEdge).catch(() => null)) ?? (await createImageBitmap(file, { imageOrientation: 'from-image' }));
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

const api = { thumbnail };
export type ThumbnailWorkerApi = typeof api;
Comlink.expose(api);
