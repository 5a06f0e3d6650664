const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** The spec's sizes: 1024-based units with 2 decimals (whole bytes below 1 KB): 0 Bytes, 1.50 KB, 25.00 MB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  if (exponent === 0) return `${Math.round(bytes)} Bytes`;
  return `${(bytes / 1024 ** exponent).toFixed(2)} ${UNITS[exponent]}`;
}

/** Megabytes with one decimal, as the selection summary shows them. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Percent saved, or null when the output is not smaller (the spec shows it only then). */
export function percentSaved(originalBytes: number, outputBytes: number): number | null {
  if (originalBytes <= 0 || outputBytes >= originalBytes) return null;
  return Math.round((1 - outputBytes / originalBytes) * 100);
}

/** How much larger an output is than its source, in whole percent (at least 1), or null when it is not larger. */
export function percentLarger(originalBytes: number, outputBytes: number): number | null {
  if (originalBytes <= 0 || outputBytes <= originalBytes) return null;
  return Math.max(1, Math.round((outputBytes / originalBytes - 1) * 100));
}
