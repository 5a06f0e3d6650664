import type { ViewRequest } from '../../core/contract';
import { formatInfo } from '../../core/formats';
import { turned } from '../../core/geometry';
import { planView, viewMatrix } from '../../core/view';
import { releaseCanvas } from './canvas-encoder';
import { decodeScaledBitmap } from './scaled-decode';

/**
 * A picture for the compare view (core/view.ts): decoded near the size it is drawn at where the browser can (a 24 MP
 * JPEG shown on a phone decodes in eighths), turned and cropped as the output frames the source, drawn to fit its box.
 */
export async function framedView({ file, source, framing, region, box }: ViewRequest): Promise<ImageBitmap> {
  const upright = source.turned ? turned(source.size) : source.size;
  const plan = planView(upright, framing, region, box);
  // A region is drawn from the whole decoded image: decode at the scale the picture needs of it.
  const bitmap =
    (await decodeScaledBitmap(file, formatInfo(source.format).mimeType, source.size, plan.scale).catch(() => null)) ??
    (await createImageBitmap(file, { imageOrientation: 'from-image' }));
  const canvas = new OffscreenCanvas(plan.size.width, plan.size.height);
  try {
    const context = canvas.getContext('2d');
    if (!context) throw new Error('Failed to get canvas context');
    context.imageSmoothingQuality = 'high';
    context.setTransform(...viewMatrix(plan, upright, framing, bitmap.width / upright.width));
    context.drawImage(bitmap, 0, 0);
    return canvas.transferToImageBitmap();
  } finally {
    bitmap.close();
    releaseCanvas(canvas);
  }
}
