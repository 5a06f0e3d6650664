import type { ConversionSettings } from './contract.ts';

/** Rules both threads apply to the settings: the page to plan a job, the worker to carry it out. */

/** Whether the settings ask for a byte budget (on, and with a size). */
export function hasTargetSize(settings: ConversionSettings): settings is ConversionSettings & { targetFileSize: number } {
  return settings.enableTargetSize && settings.targetFileSize !== null && settings.targetFileSize > 0;
}

/**
 * Which encoder writes a conversion's output: for a format a canvas may encode (`output` is its registry entry) and
 * this browser's canvas does (`browserEncodes`, asked by the page: Safari has no WebP encoder), the browser's own (a
 * canvas export) unless optimised compression asks for a WASM encoder that pays; the format's WASM encoder otherwise.
 * A target size searches with the same encoder. The page plans it (JobPlan.encoder) and the worker carries it out.
 */
export function plannedEncoder(
  settings: ConversionSettings,
  output: { canvasEncoder: boolean; wasmEncoderPays: boolean; mimeType: string },
  browserEncodes: (mimeType: string) => boolean,
): 'browser' | 'wasm' {
  const canvas = output.canvasEncoder && browserEncodes(output.mimeType);
  return canvas && !(settings.enableCompression && output.wasmEncoderPays) ? 'browser' : 'wasm';
}
