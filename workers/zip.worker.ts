import * as Comlink from 'comlink';
import { Zip, ZipPassThrough } from 'fflate';
import type { ZipEntry } from './contract';

/** Output chunks are gathered up to this size, then folded into the archive's Blob. */
const FOLD_BYTES = 4 * 1024 * 1024;

/**
 * Collects a stream's chunks into one Blob without ever holding the whole in one buffer: every FOLD_BYTES the
 * pending chunks become part of the Blob (a Blob made of a Blob refers to its data, it does not copy it).
 */
class BlobCollector {
  private blob = new Blob([]);
  private pending: Uint8Array<ArrayBuffer>[] = [];
  private pendingBytes = 0;

  constructor(private readonly type: string) {}

  add(chunk: Uint8Array): void {
    this.pending.push(chunk as Uint8Array<ArrayBuffer>);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= FOLD_BYTES) this.fold();
  }

  private fold(): void {
    this.blob = new Blob([this.blob, ...this.pending], { type: this.type });
    this.pending = [];
    this.pendingBytes = 0;
  }

  finish(): Blob {
    this.fold();
    return this.blob;
  }
}

/**
 * One archive of already-compressed images: entries are stored, not deflated again, and streamed — each file is
 * read chunk by chunk and the archive is written chunk by chunk into a Blob, so neither the outputs nor the archive
 * are ever held whole. The Blob comes back as a handle: the UI thread never copies the archive.
 */
async function zip(entries: ZipEntry[]): Promise<Blob> {
  const archive = new BlobCollector('application/zip');
  let failure: Error | null = null;
  const writer = new Zip((error, chunk) => {
    if (error) failure = error;
    else archive.add(chunk);
  });
  for (const entry of entries) {
    const file = new ZipPassThrough(entry.name);
    writer.add(file);
    const reader = entry.file.stream().getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) file.push(read.value);
    file.push(new Uint8Array(0), true);
    if (failure) throw failure;
  }
  writer.end();
  if (failure) throw failure;
  return archive.finish();
}

const api = { zip };
export type ZipWorkerApi = typeof api;
Comlink.expose(api);
