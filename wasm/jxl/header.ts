import { JXLStream } from 'image-size/types/jxl-stream';
import type { ByteSource } from '../../core/byte-source.ts';
import { isoBoxAt, type IsoBox } from '../../core/bytes.ts';
import type { HeaderRead } from '../../core/format.ts';
import { asOrientation } from '../../core/orientation.ts';

/** The size is in the codestream's first bytes; in a container, behind the signature, ftyp and metadata boxes. */
const HEADER_READ = 64 * 1024;

/** The container's top-level boxes in `bytes`, in order, up to the first whose header is cut or malformed; the last may run past `bytes`. */
export function* containerBoxes(bytes: Uint8Array): Generator<IsoBox> {
  for (let box = isoBoxAt(bytes, 0, Number.MAX_SAFE_INTEGER); box; box = isoBoxAt(bytes, box.end, Number.MAX_SAFE_INTEGER)) yield box;
}

/** Where a container's codestream starts in `bytes`: its `jxlc` box, or its first `jxlp` box (after its index). */
function containerCodestream(bytes: Uint8Array): Uint8Array | null {
  for (const box of containerBoxes(bytes)) {
    if (box.type === 'jxlc') return bytes.subarray(box.start, box.end);
    if (box.type === 'jxlp') return bytes.subarray(box.start + 4, box.end);
  }
  return null;
}

/** The codestream's bits, least significant first (the JPEG XL bitstream's order), from after its signature. */
function bitReader(codestream: Uint8Array) {
  let position = 16;
  return (count: number) => {
    let value = 0;
    for (let bit = 0; bit < count; bit++, position++) {
      const byte = codestream[position >> 3];
      if (byte === undefined) throw new RangeError('The JPEG XL header is cut');
      value |= ((byte >> (position & 7)) & 1) << bit;
    }
    return value >>> 0;
  };
}

/**
 * The codestream's orientation (1–8, EXIF's meaning), which libjxl applies as it decodes: the `ImageMetadata` after
 * the `SizeHeader` (whose fields are read only to be passed; image-size reads the size). Its first field says all is
 * default; then whether there are extra fields, the first of which is the orientation.
 */
export function codestreamOrientation(codestream: Uint8Array): number {
  const read = bitReader(codestream);
  const dimension = (small: boolean) => (small ? read(5) : read([9, 13, 18, 30][read(2)]!));
  const small = read(1) === 1;
  dimension(small);
  if (read(3) === 0) dimension(small);
  if (read(1) === 1) return 1;
  return read(1) === 1 ? 1 + read(3) : 1;
}

/** image-size's parser for the size, of the bare codestream or the container's `jxlc` or first `jxlp` box; the orientation read here. */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const head = await source.read(0, HEADER_READ);
  const codestream = head[0] === 0xff ? head : containerCodestream(head);
  if (!codestream || !JXLStream.validate(codestream)) return null;
  return { size: JXLStream.calculate(codestream), orientation: asOrientation(codestreamOrientation(codestream)) };
}
