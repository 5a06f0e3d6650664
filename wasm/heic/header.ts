/**
 * A HEIC is a HEIF, as an AVIF is: the primary item's `ispe` (a grid's, for the tiles an iPhone writes) and `irot`,
 * read by the same walk of the ISO-BMFF boxes.
 */
export { readHeader } from '../avif/header.ts';
