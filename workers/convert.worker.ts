import * as Comlink from 'comlink';
import resizeWithJsquash from '@jsquash/resize';
import type { ConversionProgress, ConvertRequest, ConvertResult } from './contract';
import { convertImage } from './pipeline/convert';
import { toImageData } from './pipeline/encoders/canvas';
import type { Resizer } from './pipeline/transform';

const lanczos3: Resizer = (image, width, height) =>
  resizeWithJsquash(toImageData(image), { width, height, method: 'lanczos3', fitMethod: 'stretch', premultiply: true, linearRGB: true });

async function convert(request: ConvertRequest, onProgress?: (progress: ConversionProgress) => void): Promise<ConvertResult> {
  const result = await convertImage(request, lanczos3, (progress) => void onProgress?.(progress));
  return Comlink.transfer(result, [result.bytes]);
}

const api = { convert };
export type ConvertWorkerApi = typeof api;
Comlink.expose(api);
