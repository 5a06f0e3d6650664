/** Blobs are read a chunk at a time, so copying a 25 MB file never holds it whole. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * A Blob's bytes, a slice at a time, each read with arrayBuffer(): what copying a file to the device and zipping
 * outputs read. Not a BYOB read of its stream into one buffer used over and over: in Chromium 156 such a read now
 * and then never settled, under load about one batch in four of the corpus's WebPs. A kept source (an output larger
 * than its source) was then never written, and its job said "Encoding 99%" for good (tests/corpus: every job of a
 * batch ends).
 */
export async function* chunksOf(blob: Blob): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < blob.size; at += CHUNK_BYTES) {
    yield new Uint8Array(await blob.slice(at, at + CHUNK_BYTES).arrayBuffer());
  }
}
