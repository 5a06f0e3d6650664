import { changesPixels } from '../../../core/geometry.ts';
import { judgesOutput, lookTiles } from '../../../core/look.ts';
import type { Codec } from '../../../wasm/index.ts';
import { frameRows } from '../bitmap-pixels.ts';
import { encodeOptions, encoderQuality, STAGE_END, type EncodedImage, type EncodeRequest, type ProgressReporter } from '../job.ts';
import { lookAt, NOT_JUDGED } from '../judge.ts';
import { lookViewOfBitmap } from '../look.ts';
import type { RawImage } from '../../../core/raw-image.ts';

/**
 * The 'rows' route: the size-optimising encoder on the decoded bitmap's rows, read out of it a strip at a time as the
 * encoder takes them (frameRows): a plain re-encode's pixels need no copy of their own when the encoder takes rows
 * (jpegli). Rows are read as stored, so the plan sends only a source stored upright here, and frameRows checks the
 * frame says so too. Null, the bitmap still open, where the rows are not read so (an engine that failed the check, a
 * frame with alpha or stored turned, a decoder that showed another size than the header's): the pixel route then
 * reads it whole.
 */
export async function rowsToWasmEncoder(bitmap: ImageBitmap, output: Codec, request: EncodeRequest, report: ProgressReporter): Promise<EncodedImage | null> {
  const { settings } = request;
  if (!output.encodeRows || changesPixels(bitmap, settings)) return null;
  const rows = await frameRows(bitmap);
  if (!rows) return null;
  const { width, height } = rows;
  const tiles = lookTiles(bitmap);
  let bytes: ArrayBuffer;
  let sourceView: RawImage | null;
  try {
    // An opaque frame (frameRows): nothing to flatten, in the view or the output.
    sourceView = judgesOutput(settings, output.format, bitmap) ? lookViewOfBitmap(bitmap, tiles, null) : null;
    bytes = await output.encodeRows(rows, encodeOptions(encoderQuality(settings), request));
  } finally {
    rows.close();
    bitmap.close();
  }
  report({ percent: STAGE_END.encode });
  const look = sourceView ? await lookAt(sourceView, tiles, bytes, output, request.judgeLater) : NOT_JUDGED;
  return { bytes, mimeType: output.format.mimeType, width, height, encodes: 1, ...look };
}
