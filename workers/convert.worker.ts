import * as Comlink from 'comlink';
import type { ConversionProgress, ConvertRequest, ConvertResult, ConvertWorkerApi, WarmUpPlan } from '../core/contract';
import { resizeLanczos3, warmCodecs } from '../wasm';
import { convertImage } from './pipeline/convert';
import { toImageData } from './pipeline/canvas-encoder';
import type { Resizer } from './pipeline/transform';

const lanczos3: Resizer = (image, width, height) => resizeLanczos3(toImageData(image), width, height);

async function convert(request: ConvertRequest, onProgress?: (progress: ConversionProgress) => void): Promise<ConvertResult> {
  const { bytes, mimeType, encodes, keptOriginal, width, height } = await convertImage(request, lanczos3, (progress) => void onProgress?.(progress));
  // The source itself when it is the better file: a handle to the visitor's own bytes, not a copy.
  const blob = keptOriginal ? request.file.slice(0, request.file.size, mimeType) : new Blob([bytes], { type: mimeType });
  return { blob, encodes, keptOriginal, width, height };
}

/** Fetches and compiles the codecs a coming conversion needs, ahead of it. */
async function warmUp(plan: WarmUpPlan): Promise<void> {
  await warmCodecs(plan);
}

const api: ConvertWorkerApi = { convert, warmUp };
Comlink.expose(api);
