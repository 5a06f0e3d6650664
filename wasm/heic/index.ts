import { NO_SOURCE_METADATA, type SourceCodec } from '../codec.ts';
import { decodeHeic, decodeHeicThumbnail } from './loader.ts';
import { heic } from '../../core/formats/heic.ts';

/**
 * Decoded by the browser where it can (Safari), else by libheif in WebAssembly. Its EXIF is not read: HEIF orients
 * the image with its own boxes, which both decoders apply (libheif as it decodes).
 */
export const codec: SourceCodec = {
  format: heic,
  decode: decodeHeic,
  decodeThumbnail: decodeHeicThumbnail,
  decodesUpright: true,
  metadata: NO_SOURCE_METADATA,
};
