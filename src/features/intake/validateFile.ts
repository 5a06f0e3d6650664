import { probeImage, type ImageHeader } from '../../conversion/bridge.ts';
import { imageTooLargeMessage } from '../../../core/messages.ts';
import { acceptedFormatsText, formatFromMimeType, type SourceFormat } from '../../../core/formats.ts';

export const MAX_FILE_BYTES = 25 * 1024 * 1024;
export const MIN_FILE_BYTES = 100;

export const VALIDATION_MESSAGES = {
  tooLarge: 'File too large. Maximum 25MB per file.',
  notImage: 'Not an image file.',
  /** The spec's words, naming every format the registry takes in (its four, then the sources only). */
  unsupported: `Unsupported format. Use ${acceptedFormatsText({ serialComma: true })}.`,
  mismatch: 'Invalid file format. File may be corrupted or malicious.',
  tooSmall: 'File too small to be a valid image.',
} as const;

export type ValidationResult = { isValid: true; format: SourceFormat; size: { width: number; height: number }; animated: boolean; pages: number } | { isValid: false; message: string };

/**
 * The spec's five rules, in its order; the first that fails gives the message. Then two of ours, from the same
 * header read, before anything decodes the file: a header without readable dimensions is corrupt (the spec's
 * "may be corrupted" message), and an image over `pixelLimit` (memory.ts) is refused with its size. Only the head
 * of the file is read (src/conversion/probe.ts), and only when rules 1–3 pass.
 */
export async function validateFile(file: Blob, pixelLimit: number): Promise<ValidationResult> {
  if (file.size > MAX_FILE_BYTES) return { isValid: false, message: VALIDATION_MESSAGES.tooLarge };
  if (!file.type.startsWith('image/')) return { isValid: false, message: VALIDATION_MESSAGES.notImage };
  const declared = formatFromMimeType(file.type);
  if (!declared) return { isValid: false, message: VALIDATION_MESSAGES.unsupported };
  const header: ImageHeader | null = await probeImage(file).catch(() => null);
  if (header?.format !== declared) return { isValid: false, message: VALIDATION_MESSAGES.mismatch };
  if (file.size < MIN_FILE_BYTES) return { isValid: false, message: VALIDATION_MESSAGES.tooSmall };
  if (!header.size) return { isValid: false, message: VALIDATION_MESSAGES.mismatch };
  const pixels = header.size.width * header.size.height;
  if (pixels > pixelLimit) return { isValid: false, message: imageTooLargeMessage(pixels, pixelLimit) };
  return { isValid: true, format: declared, size: header.size, animated: header.animated ?? false, pages: header.pages ?? 1 };
}
