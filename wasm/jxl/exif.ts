import { be32, concat, latin1, u32be } from '../../core/bytes.ts';
import { tiffPayload, withUprightOrientation } from '../../core/exif.ts';
import type { ContainerMetadata } from '../codec.ts';
import { containerBoxes } from './header.ts';
import { JXL_CONTAINER_SIGNATURE } from '../../core/formats/jxl.ts';

/** Boxes that carry data about the image: EXIF, XMP, JUMBF, and any of them Brotli-compressed (`brob`). */
const METADATA_BOXES = new Set(['Exif', 'xml ', 'jumb', 'brob']);

/** The `ftyp` box of a JPEG XL file: brand "jxl ", version 0, compatible with "jxl ". */
const FTYP = concat(be32(20), latin1('ftypjxl '), be32(0), latin1('jxl '));

const box = (type: string, content: Uint8Array) => concat(be32(8 + content.length), latin1(type), content);

/**
 * A container's `Exif` box: a 4-byte offset to the TIFF header, then the TIFF structure. A bare codestream has none.
 * Its orientation is given back upright: libjxl applies the codestream's own orientation as it decodes (which a
 * recompressed JPEG takes from its EXIF), and the format says the EXIF one is not to be applied again.
 */
function readExif(bytes: Uint8Array): Uint8Array | null {
  for (const { type, start, end } of containerBoxes(bytes)) {
    if (type !== 'Exif' || end > bytes.length || start + 4 > end) continue;
    const tiff = tiffPayload(bytes.subarray(start + 4 + u32be(bytes, start), end));
    return tiff ? withUprightOrientation(tiff) : null;
  }
  return null;
}

/**
 * libjxl writes a bare codestream; EXIF needs the container: the signature box, `ftyp`, the `Exif` box, then the
 * codestream in a `jxlc` box. A file that is a container already gets the `Exif` box after its `ftyp`.
 */
function writeExif(encoded: Uint8Array, tiff: Uint8Array): Uint8Array {
  const exif = box('Exif', concat(be32(0), tiff));
  if (encoded[0] === 0xff) return concat(new Uint8Array(JXL_CONTAINER_SIGNATURE), FTYP, exif, box('jxlc', encoded));
  const ftyp = [...containerBoxes(encoded)].find((candidate) => candidate.type === 'ftyp');
  if (!ftyp) throw new Error('A JPEG XL container without an ftyp box');
  return concat(encoded.subarray(0, ftyp.end), exif, encoded.subarray(ftyp.end));
}

function hasMetadata(bytes: Uint8Array): boolean {
  for (const { type } of containerBoxes(bytes)) if (METADATA_BOXES.has(type)) return true;
  return false;
}

export const jxlMetadata: ContainerMetadata = { readExif, writeExif, hasMetadata };
