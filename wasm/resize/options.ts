import type { WorkerResizeOptions } from '@jsquash/resize/meta';

/**
 * Lanczos3 in linear light with premultiplied alpha: Squoosh's best resampler for photos. The app resizes with these,
 * and `npm run bench:heaps` measures the heap they grow.
 */
export const LANCZOS3_OPTIONS = { method: 'lanczos3', fitMethod: 'stretch', premultiply: true, linearRGB: true } as const satisfies Omit<WorkerResizeOptions, 'width' | 'height'>;
