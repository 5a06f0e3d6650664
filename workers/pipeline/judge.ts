import type { JudgeRequest, LookSource, OutputLook } from '../../core/contract.ts';
import type { Rect } from '../../core/geometry.ts';
import { CONVERSION_ERRORS } from '../../core/messages.ts';
import { CODECS, SOURCE_CODECS, type Codec } from '../../wasm/index.ts';
import { ssimulacra2 } from '../../wasm/ssimulacra2/loader.ts';
import { decodeToBitmap, decodeWithWasm } from './decode.ts';
import { explainMemoryFailure } from '../../core/failures.ts';
import type { EncodedImage } from './job.ts';
import { lookView, lookViewOfBitmap } from './look.ts';
import type { RawImage } from '../../core/raw-image.ts';
import { UPRIGHT } from '../../core/orientation.ts';

/**
 * The decoded pixels of an encoded output, as the view of `tiles` (workers/pipeline/look.ts): the browser's decoder
 * where it reads the format, the app's own (JPEG XL) where not. An output is written upright, with no orientation.
 */
async function decodedView(bytes: ArrayBuffer, output: Codec, tiles: readonly Rect[]): Promise<RawImage> {
  const bitmap = await decodeToBitmap(new Blob([bytes], { type: output.format.mimeType }));
  if (bitmap) {
    try {
      return lookViewOfBitmap(bitmap, tiles, null);
    } finally {
      bitmap.close();
    }
  }
  const pixels = await decodeWithWasm(bytes, SOURCE_CODECS[output.format.id], UPRIGHT);
  if (!pixels) throw new Error(CONVERSION_ERRORS.compression);
  return lookView(pixels, tiles);
}

/** SSIMULACRA2 of an encoded output's view against the source's view (the same tiles of each). */
export const scoreOf = async (sourceView: RawImage, bytes: ArrayBuffer, output: Codec, tiles: readonly Rect[]): Promise<number> =>
  (await ssimulacra2())(sourceView, await decodedView(bytes, output, tiles));

/** An output not judged, now or later: a lossless one, a target size's. */
export const NOT_JUDGED = { look: null, lookSource: null } as const;

/**
 * The output's look at a fixed quality: its view decoded and judged against the source's now, or (judgeLater) the
 * source's view handed back for the page to have it judged once the batch is done.
 */
export async function lookAt(sourceView: RawImage, tiles: Rect[], bytes: ArrayBuffer, output: Codec, judgeLater: boolean): Promise<Pick<EncodedImage, 'look' | 'lookSource'>> {
  if (judgeLater) return { look: null, lookSource: { view: sourceView, tiles } satisfies LookSource };
  return { look: { score: await scoreOf(sourceView, bytes, output, tiles), smartQuality: null }, lookSource: null };
}

/** How an output looks beside its source's view, judged after its conversion (ConvertRequest.judgeLater). */
export async function judgeOutput({ output, format, source }: JudgeRequest): Promise<OutputLook> {
  try {
    return { score: await scoreOf(source.view, await output.arrayBuffer(), CODECS[format], source.tiles), smartQuality: null };
  } catch (error) {
    throw explainMemoryFailure(error);
  }
}
