import * as Comlink from 'comlink';
import resizeWithJsquash from '@jsquash/resize';
import type { ConversionProgress, ConvertRequest, ConvertResult, ImageFormat } from './contract';
import { convertImage } from './pipeline/convert';
import { ENCODERS } from './pipeline/encoders';
import { toImageData } from './pipeline/encoders/canvas';
import type { Resizer } from './pipeline/transform';

const lanczos3: Resizer = (image, width, height) =>
  resizeWithJsquash(toImageData(image), { width, height, method: 'lanczos3', fitMethod: 'stretch', premultiply: true, linearRGB: true });

async function convert(request: ConvertRequest, onProgress?: (progress: ConversionProgress) => void): Promise<ConvertResult> {
  const { bytes, mimeType, width, height, encodes } = await convertImage(request, lanczos3, (progress) => void onProgress?.(progress));
  return { blob: new Blob([bytes], { type: mimeType }), width, height, encodes };
}

/** Loads and compiles what a conversion to `format` needs, ahead of the first one. */
async function warmUp(format: ImageFormat): Promise<void> {
  const tiny = { data: new Uint8ClampedArray(4 * 4 * 4).fill(255), width: 4, height: 4 };
  await lanczos3(tiny, 2, 2);
  await ENCODERS[format].encode(tiny, { quality: 0.5, optimise: true });
}

const api = { convert, warmUp };
export type ConvertWorkerApi = typeof api;
Comlink.expose(api);
