import { NO_SOURCE_METADATA, type SourceCodec } from '../codec.ts';
import { decodeTiff } from './loader.ts';
import { tiff } from '../../core/formats/tiff.ts';

/**
 * Decoded by the browser where it can (Safari), else by UTIF. Its EXIF is not read: the Orientation tag is the TIFF's
 * own, which the browser's decoder applies and, after UTIF's, the pipeline (it comes with the header).
 */
export const codec: SourceCodec = {
  format: tiff,
  decode: decodeTiff,
  decodesUpright: false,
  metadata: NO_SOURCE_METADATA,
};
