import * as Comlink from 'comlink';
import { resizeLanczos3, warmCodecs, type CodecPlan } from '../wasm';
import type { ConversionProgress, ConvertRequest, ConvertResult } from './contract';
import { convertImage } from './pipeline/convert';
import { toImageData } from './pipeline/encoders/canvas';
import type { Resizer } from './pipeline/transform';

const lanczos3: Resizer = (image, width, height) => resizeLanczos3(toImageData(image), width, height);

async function convert(request: ConvertRequest, onProgress?: (progress: ConversionProgress) => void): Promise<ConvertResult> {
  const { bytes, mimeType, encodes, keptOriginal, width, height } = await convertImage(request, lanczos3, (progress) => void onProgress?.(progress));
  // The source itself when it is the better file: a handle to the visitor's own bytes, not a copy.
  const blob = keptOriginal ? request.file.slice(0, request.file.size, mimeType) : new Blob([bytes], { type: mimeType });
  return { blob, encodes, keptOriginal, width, height };
}

export type WarmUpPlan = CodecPlan;

/** Fetches and compiles the codecs a coming conversion needs, ahead of it. */
async function warmUp(plan: WarmUpPlan): Promise<void> {
  await warmCodecs(plan);
}

const api = { convert, warmUp };
export type ConvertWorkerApi = typeof api;
Comlink.expose(api);
