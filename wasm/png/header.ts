import { PNG } from 'image-size/types/png';
import { fixedHeaderReader } from '../../core/byte-source';

/** IHDR is the first chunk, its size at a fixed place: image-size's parser reads it. */
export const readHeader = fixedHeaderReader(PNG);
