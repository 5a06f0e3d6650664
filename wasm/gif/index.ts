import { decodedByEveryBrowser, type SourceCodec } from '../codec';
import { gif } from './meta';

/** Decoded by the browser (createImageBitmap), which every engine can; no EXIF in a GIF. */
export const codec: SourceCodec = decodedByEveryBrowser(gif);
