import { NO_SOURCE_METADATA, type SourceCodec } from '../codec';
import { decodeJxl } from './loader';
import { jxl } from './meta';

/** Decoded by the browser where it can (Safari), else by libjxl in WebAssembly. Its EXIF is not read yet. */
export const codec: SourceCodec = {
  format: jxl,
  decode: decodeJxl,
  metadata: NO_SOURCE_METADATA,
};
