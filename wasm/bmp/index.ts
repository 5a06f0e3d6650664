import { decodedByEveryBrowser, type SourceCodec } from '../codec.ts';
import { bmp } from '../../core/formats/bmp.ts';

/** Decoded by the browser (createImageBitmap), which every engine can; no EXIF in a BMP. */
export const codec: SourceCodec = decodedByEveryBrowser(bmp);
