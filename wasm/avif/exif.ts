import { containsBytes, latin1 } from '../../core/bytes.ts';
import type { ContainerMetadata } from '../codec.ts';
import { topLevelBox } from './header.ts';

const METADATA_MARKS = [latin1('Exif'), latin1('application/rdf+xml')].map((mark) => [...mark]);

/**
 * An AVIF's metadata are items of its `meta` box: an `Exif` item, or XMP as a `mime` item. EXIF is neither read
 * nor written here: libavif's encoder takes none, and the registry's `exif` flag is off.
 */
function hasMetadata(bytes: Uint8Array): boolean {
  const meta = topLevelBox(bytes, 'meta');
  return meta !== null && METADATA_MARKS.some((mark) => containsBytes(bytes, mark, meta.start, meta.end));
}

export const avifMetadata: ContainerMetadata = { readExif: () => null, hasMetadata };
