import * as Comlink from 'comlink';
import type { ConversionProgress, ConvertRequest, ConvertResult, ConvertWorkerApi, WarmUpPlan } from '../core/contract.ts';
import { resizeLanczos3, warmCodecs } from '../wasm/index.ts';
import { ssimulacra2 } from '../wasm/ssimulacra2/loader.ts';
import { convertImage, judgeOutput, sampleOutput } from './pipeline/convert.ts';
import { writeDeviceFile } from '../core/deviceFiles.ts';
import { toImageData } from '../core/raw-image.ts';
import { crc32 } from '../core/bytes.ts';
import type { Resizer } from './pipeline/transform.ts';

const lanczos3: Resizer = (image, width, height) => resizeLanczos3(toImageData(image), width, height);

async function convert(request: ConvertRequest, onProgress?: (progress: ConversionProgress) => void): Promise<ConvertResult> {
  const { bytes, mimeType, encodes, route, keptOriginal, grewBecause, look, lookSource, width, height } = await convertImage(request, lanczos3, (progress) => void onProgress?.(progress));
  // The source kept in its place was not the output judged, nor is it to be.
  const done = { encodes, route, keptOriginal, grewBecause, look: keptOriginal ? null : look, lookSource: keptOriginal ? null : lookSource, width, height, crc32: keptOriginal ? null : crc32(new Uint8Array(bytes)) };
  // The view goes to the page as it is, not as a copy (2.4 MB at most).
  const sent = <T extends object>(result: T) => (done.lookSource ? Comlink.transfer(result, [done.lookSource.view.data.buffer]) : result);
  // The source itself when it is the better file: a handle to the visitor's own bytes, not a copy.
  const output = keptOriginal ? request.file.slice(0, request.file.size, mimeType) : bytes;
  // Written to the device by the worker that made it: the page gets a handle to the stored file, not the bytes.
  const stored = request.keepAt ? await writeDeviceFile(request.keepAt, output, mimeType) : null;
  if (stored?.kept === 'device') return sent({ ...done, blob: stored.blob, kept: 'device' as const });
  return sent({ ...done, blob: output instanceof Blob ? output : new Blob([output], { type: mimeType }), kept: stored?.kept ?? 'memory' });
}

/** Fetches and compiles the codecs a coming conversion needs, ahead of it. */
async function warmUp(plan: WarmUpPlan): Promise<void> {
  await Promise.all([warmCodecs(plan), plan.judge ? ssimulacra2() : null]);
}

const api: ConvertWorkerApi = { convert, warmUp, sample: (request) => sampleOutput(request, lanczos3), judge: judgeOutput };
Comlink.expose(api);
