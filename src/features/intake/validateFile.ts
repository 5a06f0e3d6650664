import { sniffImageFormat } from '../../../workers/bridge';
import { formatFromMimeType, type ImageFormat } from '../../../workers/formats';

export const MAX_FILE_BYTES = 25 * 1024 * 1024;
export const MIN_FILE_BYTES = 100;

export const VALIDATION_MESSAGES = {
  tooLarge: 'File too large. Maximum 25MB per file.',
  notImage: 'Not an image file.',
  unsupported: 'Unsupported format. Use JPG, PNG, WebP, or AVIF.',
  mismatch: 'Invalid file format. File may be corrupted or malicious.',
  tooSmall: 'File too small to be a valid image.',
} as const;

export type ValidationResult = { isValid: true; format: ImageFormat } | { isValid: false; message: string };

/**
 * The spec's five rules, in its order; the first that fails gives the message.
 * Only the signature bytes are read, and only when rules 1–3 pass.
 */
export async function validateFile(file: Blob): Promise<ValidationResult> {
  if (file.size > MAX_FILE_BYTES) return { isValid: false, message: VALIDATION_MESSAGES.tooLarge };
  if (!file.type.startsWith('image/')) return { isValid: false, message: VALIDATION_MESSAGES.notImage };
  const declared = formatFromMimeType(file.type);
  if (!declared) return { isValid: false, message: VALIDATION_MESSAGES.unsupported };
  const actual = await sniffImageFormat(file).catch(() => null);
  if (actual !== declared) return { isValid: false, message: VALIDATION_MESSAGES.mismatch };
  if (file.size < MIN_FILE_BYTES) return { isValid: false, message: VALIDATION_MESSAGES.tooSmall };
  return { isValid: true, format: declared };
}
