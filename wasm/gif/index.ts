import { decodedByEveryBrowser, type SourceCodec } from '../codec.ts';
import { gif } from '../../core/formats/gif.ts';

/** Decoded by the browser (createImageBitmap), which every engine can; no EXIF in a GIF. */
export const codec: SourceCodec = decodedByEveryBrowser(gif);
