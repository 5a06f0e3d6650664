import { WEBP } from 'image-size/types/webp';
import { fixedHeaderReader } from '../../core/byte-source';

/** The first chunk (VP8, VP8L or VP8X) holds the canvas size: image-size's parser reads it. */
export const readHeader = fixedHeaderReader(WEBP);
