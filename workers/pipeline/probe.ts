import { detectFormat, type ImageFormat } from '../formats';
import { ftypBoxSize } from './bytes';

/** Bytes that tell every format apart, except an AVIF whose brand comes late in its ftyp box (see bytesNeededForSignature). */
export const SIGNATURE_LENGTH = 32;

/** A long brand list is legal but rare; this bounds the read for hostile headers. */
const MAX_SIGNATURE_READ = 4096;

/** How many leading bytes the signature check needs, given the first SIGNATURE_LENGTH bytes. */
export function bytesNeededForSignature(head: Uint8Array): number {
  const boxSize = ftypBoxSize(head);
  return boxSize > head.length ? Math.min(boxSize, MAX_SIGNATURE_READ) : head.length;
}

/** Reads the few leading bytes of a Blob needed to identify its format, never the whole file. */
export async function sniffImageFormat(blob: Blob): Promise<ImageFormat | null> {
  let head = new Uint8Array(await blob.slice(0, SIGNATURE_LENGTH).arrayBuffer());
  const needed = bytesNeededForSignature(head);
  if (needed > head.length) head = new Uint8Array(await blob.slice(0, needed).arrayBuffer());
  return detectFormat(head);
}
