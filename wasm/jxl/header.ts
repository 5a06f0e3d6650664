import { JXL } from 'image-size/types/jxl';
import { JXLStream } from 'image-size/types/jxl-stream';
import type { ByteSource } from '../../core/byte-source';
import type { HeaderRead } from '../../core/format';

/** The size is in the codestream's first bytes; in a container, behind the signature, ftyp and metadata boxes. */
const HEADER_READ = 64 * 1024;

/** image-size's parsers: the bare codestream's size header, or the container's `jxlc` or first `jxlp` box's. */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const head = await source.read(0, HEADER_READ);
  const parser = head[0] === 0xff ? JXLStream : JXL;
  if (!parser.validate(head)) return null;
  return { size: parser.calculate(head), turned: false };
}
