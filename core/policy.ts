import type { ConversionSettings } from './contract';

/** Rules both threads apply to the settings: the page to plan a job, the worker to carry it out. */

/** Whether the settings ask for a byte budget (on, and with a size). */
export function hasTargetSize(settings: ConversionSettings): settings is ConversionSettings & { targetFileSize: number } {
  return settings.enableTargetSize && settings.targetFileSize !== null && settings.targetFileSize > 0;
}

/**
 * Which encoder writes a conversion's output: for a format a canvas may encode (`output` is its registry entry), the
 * browser's own (a canvas export) unless optimised compression asks for a WASM encoder that pays; the format's WASM
 * encoder otherwise. A target size searches with the same encoder. The page plans it (JobPlan.encoder) and the worker
 * carries it out; where a browser turns out not to encode a type its registry entry allows (Safari and WebP), the
 * worker uses the WASM one.
 */
export function plannedEncoder(settings: ConversionSettings, output: { canvasEncoder: boolean; wasmEncoderPays: boolean }): 'browser' | 'wasm' {
  return output.canvasEncoder && !(settings.enableCompression && output.wasmEncoderPays) ? 'browser' : 'wasm';
}
