import { avif } from './formats/avif.ts';
import { bmp } from './formats/bmp.ts';
import { gif } from './formats/gif.ts';
import { heic } from './formats/heic.ts';
import { jxl } from './formats/jxl.ts';
import { tiff } from './formats/tiff.ts';
import { jpeg } from './formats/jpeg.ts';
import { png } from './formats/png.ts';
import { webp } from './formats/webp.ts';
import type { FormatInfo, SourceFormatInfo } from './format.ts';

/**
 * The format registry: one entry per format (its facts in core/formats/<format>.ts, its codec in wasm/<format>/), read by the page (labels, accepted types,
 * which settings apply, header readers) and by the workers (encoder choice, alpha, EXIF). The order is the UI's.
 * Adding a format is a codec folder and its line here (docs/architecture.md, "How to add an output format").
 */
export const FORMATS = { jpeg, png, webp, avif, jxl } as const;

export type ImageFormat = keyof typeof FORMATS;

export const IMAGE_FORMATS = Object.keys(FORMATS) as readonly ImageFormat[];

/** Formats the app takes in but does not write (the browser decodes them, or a WASM decoder where it cannot). One line per codec folder, like FORMATS. */
export const SOURCE_ONLY_FORMATS = { heic, tiff, gif, bmp } as const;

/** Every format a file may come in: the outputs, then the sources only. */
export const SOURCE_FORMATS = { ...FORMATS, ...SOURCE_ONLY_FORMATS } as const;

export type SourceFormat = keyof typeof SOURCE_FORMATS;

export const SOURCE_FORMAT_IDS = Object.keys(SOURCE_FORMATS) as readonly SourceFormat[];

export { QUALITY_RANGE, type FormatInfo, type HeaderRead, type SourceFormatInfo } from './format.ts';

/** One entry, seen through the common interface rather than its literal type. */
export function formatInfo(format: ImageFormat): FormatInfo<ImageFormat> {
  return FORMATS[format];
}

/** A source format's entry, seen through the common interface. */
export function sourceFormatInfo(format: SourceFormat): SourceFormatInfo<SourceFormat> {
  return SOURCE_FORMATS[format];
}

/** The format whose signature the leading bytes carry, or null when they match none we accept. */
export function detectFormat(head: Uint8Array): SourceFormat | null {
  return SOURCE_FORMAT_IDS.find((format) => sourceFormatInfo(format).matches(head)) ?? null;
}

/** The declared format of a MIME type we accept ("image/JPG" too), or null. */
export function formatFromMimeType(type: string): SourceFormat | null {
  const match = /^image\/([a-z0-9.+-]+)$/i.exec(type.trim());
  if (!match) return null;
  const subtype = match[1]!.toLowerCase();
  return SOURCE_FORMAT_IDS.find((format) => sourceFormatInfo(format).mimeSubtypes.includes(subtype)) ?? null;
}

/**
 * The format a file's name says (its extension, "IMG_0001.HEIC" too), or null: for a file that comes with no MIME type
 * of ours, as Chromium gives a HEIC from a folder's handle.
 */
export function formatFromFileName(name: string): SourceFormat | null {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = name.slice(dot + 1).toLowerCase();
  return SOURCE_FORMAT_IDS.find((format) => [sourceFormatInfo(format).extension, ...sourceFormatInfo(format).extensionAliases].includes(extension)) ?? null;
}

/** The labels of every format a file may come in, in the registry's order: what the drop zone and the messages name. */
export const SOURCE_LABELS: readonly string[] = SOURCE_FORMAT_IDS.map((format) => SOURCE_FORMATS[format].label);

/** "JPG, PNG, WebP, AVIF, GIF, or BMP" (`serialComma`), or "… GIF or BMP", as the spec's messages write their lists. */
export function acceptedFormatsText({ serialComma }: { serialComma: boolean }): string {
  return `${SOURCE_LABELS.slice(0, -1).join(', ')}${serialComma ? ',' : ''} or ${SOURCE_LABELS.at(-1)}`;
}
