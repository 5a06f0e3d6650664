import type { ViewRequest } from '../../core/contract.ts';
import { shownSize } from '../../core/plan.ts';
import { CONVERSION_ERRORS } from '../../core/messages.ts';
import { planView, viewMatrix } from '../../core/view.ts';
import { releaseCanvas } from './canvas-encoder.ts';
import { bitmapNearScale } from './shown-bitmap.ts';

/**
 * A picture for the compare view (core/view.ts): decoded near the size it is drawn at where the browser can (a 24 MP
 * JPEG shown on a phone decodes in eighths), turned and cropped as the output frames the source, drawn to fit its box.
 */
export async function framedView({ file, source, framing, region, box }: ViewRequest): Promise<ImageBitmap> {
  const upright = shownSize(source);
  const plan = planView(upright, framing, region, box);
  // A region is drawn from the whole decoded image: decode at the scale the picture needs of it.
  const bitmap = await bitmapNearScale(file, source, plan.scale);
  const canvas = new OffscreenCanvas(plan.size.width, plan.size.height);
  try {
    const context = canvas.getContext('2d');
    if (!context) throw new Error(CONVERSION_ERRORS.canvas);
    context.imageSmoothingQuality = 'high';
    context.setTransform(...viewMatrix(plan, upright, framing, bitmap.width / upright.width));
    context.drawImage(bitmap, 0, 0);
    return canvas.transferToImageBitmap();
  } finally {
    bitmap.close();
    releaseCanvas(canvas);
  }
}
