import { megapixels } from './memory.ts';

/** Messages of the spec's error catalogue; a worker throws an Error with one of these. */
export const CONVERSION_ERRORS = {
  load: 'Failed to load image',
  canvas: 'Failed to get canvas context',
  blob: 'Failed to convert to blob',
  targetSize: 'Failed to optimize for target file size',
  compression: 'Compression failed',
  generic: 'Conversion failed',
  memory: 'Not enough memory to convert this image',
} as const;

/** A source over the pixel limit, refused at intake (and by the worker, should one reach it). */
export function imageTooLargeMessage(pixels: number, limit: number): string {
  return `Image too large: ${megapixels(pixels, limit)} megapixels (limit ${limit / 1_000_000})`;
}

/** An output size (resize, custom size) over the pixel limit. */
export function outputTooLargeMessage(pixels: number, limit: number): string {
  return `Output too large: ${megapixels(pixels, limit)} megapixels (limit ${limit / 1_000_000})`;
}

/** Whether a message is one a visitor should read as it is: the catalogue's, or a size limit's. */
export function isExplainedError(message: string): boolean {
  return (Object.values(CONVERSION_ERRORS) as string[]).includes(message) || /^(Image|Output) too large: /.test(message);
}
