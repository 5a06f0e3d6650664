const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** 1024-based human size with up to 2 decimals: 0 Bytes, 1.5 KB, 24.99 MB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(2))} ${UNITS[exponent]}`;
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
