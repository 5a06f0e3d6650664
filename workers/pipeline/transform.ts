import type { ConversionSettings, JobPlan } from '../../core/contract.ts';
import { planGeometry, rotated, scaleRect, type GeometryPlan, type Size } from '../../core/geometry.ts';
import { adjust, crop, flatten, rotate } from './pixels.ts';
import type { RawImage } from '../../core/raw-image.ts';

/** A high-quality resampler; the worker passes jSquash's Lanczos3, tests may pass their own. */
export type Resizer = (image: RawImage, width: number, height: number) => Promise<RawImage>;

export interface TransformOptions {
  resize: Resizer;
  /**
   * Whether the image is flattened onto the background colour: for an output without an alpha channel (JPEG) from a
   * source that may have one (a JPEG source never does, and checking its 12 million opaque pixels took 14 ms).
   */
  flatten: boolean;
  /**
   * The upright source's full size when it was decoded smaller (decodeScaledBitmap): the plan is made on it, so the
   * output has the size a full decode would give, and the crop is mapped onto the smaller pixels.
   */
  fullSize?: Size | null;
  /** The job's plan: its geometry is used as it is when the decoder shows the source as the header said. */
  plan?: Pick<JobPlan, 'shown' | 'geometry'>;
}

/**
 * The crop and output size on the source as decoded and rotated: the plan's, made on the page, when the decoder
 * shows the source as its header said; planned afresh only where the decoder disagrees with the header (a browser
 * that does not apply an orientation the header carries).
 */
export function geometryFor(shown: Size, settings: ConversionSettings, plan?: Pick<JobPlan, 'shown' | 'geometry'>): GeometryPlan {
  return plan && plan.shown.width === shown.width && plan.shown.height === shown.height ? plan.geometry : planGeometry(shown, settings);
}

/** rotation → aspect-ratio crop → resize → brightness/contrast/saturation → flatten (when the output has no alpha). */
export async function transform(source: RawImage, settings: ConversionSettings, options: TransformOptions): Promise<RawImage> {
  let image = rotate(source, settings.rotation);
  const full = options.fullSize ? rotated(options.fullSize, settings.rotation) : image;
  const plan = geometryFor(full, settings, options.plan);
  image = crop(image, full === image ? plan.crop : scaleRect(plan.crop, full, image));
  if (image.width !== plan.width || image.height !== plan.height) image = await options.resize(image, plan.width, plan.height);
  image = adjust(image, settings);
  if (options.flatten) image = flatten(image, settings.backgroundColor);
  return image;
}
