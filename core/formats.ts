import { avif } from '../wasm/avif/meta';
import { jpeg } from '../wasm/jpeg/meta';
import { png } from '../wasm/png/meta';
import { webp } from '../wasm/webp/meta';
import type { FormatInfo } from './format';

/**
 * The format registry: one entry per codec folder (wasm/<codec>/meta.ts), read by the page (labels, accepted types,
 * which settings apply, header readers) and by the workers (encoder choice, alpha, EXIF). The order is the UI's.
 * Adding a format is a codec folder and its line here (docs/architecture.md, "How to add an output format").
 */
export const FORMATS = { jpeg, png, webp, avif } as const;

export type ImageFormat = keyof typeof FORMATS;

export const IMAGE_FORMATS = Object.keys(FORMATS) as readonly ImageFormat[];

export { QUALITY_RANGE, type FormatInfo, type HeaderRead } from './format';

/** One entry, seen through the common interface rather than its literal type. */
export function formatInfo(format: ImageFormat): FormatInfo<ImageFormat> {
  return FORMATS[format];
}

/** The format whose signature the leading bytes carry, or null when they match none we accept. */
export function detectFormat(head: Uint8Array): ImageFormat | null {
  return IMAGE_FORMATS.find((format) => formatInfo(format).matches(head)) ?? null;
}

/** The declared format of a MIME type we accept ("image/JPG" too), or null. */
export function formatFromMimeType(type: string): ImageFormat | null {
  const match = /^image\/([a-z0-9.+-]+)$/i.exec(type.trim());
  if (!match) return null;
  const subtype = match[1]!.toLowerCase();
  return IMAGE_FORMATS.find((format) => formatInfo(format).mimeSubtypes.includes(subtype)) ?? null;
}
