import type { ConversionSettings } from './contract';

/** Rules both threads apply to the settings: the page to plan a job, the worker to carry it out. */

/** Whether the settings ask for a byte budget (on, and with a size). */
export function hasTargetSize(settings: ConversionSettings): settings is ConversionSettings & { targetFileSize: number } {
  return settings.enableTargetSize && settings.targetFileSize !== null && settings.targetFileSize > 0;
}

/**
 * Whether a conversion with these settings ends in the browser's own encoder (a canvas export), not a WASM one: no
 * optimised compression, no target size, and a format a canvas may encode (`output` is its registry entry).
 */
export function usesBrowserEncoder(settings: ConversionSettings, output: { canvasEncoder: boolean }): boolean {
  return output.canvasEncoder && !settings.enableCompression && !hasTargetSize(settings);
}
