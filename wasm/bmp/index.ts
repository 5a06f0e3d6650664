import { decodedByEveryBrowser, type SourceCodec } from '../codec';
import { bmp } from './meta';

/** Decoded by the browser (createImageBitmap), which every engine can; no EXIF in a BMP. */
export const codec: SourceCodec = decodedByEveryBrowser(bmp);
