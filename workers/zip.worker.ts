import * as Comlink from 'comlink';
import { Zip, ZipPassThrough } from 'fflate';
import type { ZipEntry, ZipWorkerApi } from '../core/contract.ts';

/**
 * One archive of already-compressed images, entries stored (not deflated again). fflate's streaming `Zip` writes
 * the headers, sizes and CRCs as each output is read through once, chunk by chunk; the archive is then a Blob made
 * of those headers and the outputs' own Blobs — a Blob built from Blobs refers to their bytes instead of copying
 * them — so the outputs are never held twice and no archive-sized buffer exists. The Blob comes back as a handle:
 * the UI thread never copies the archive.
 */
async function zip(entries: ZipEntry[]): Promise<Blob> {
  const parts: BlobPart[] = [];
  /** Which entry a data chunk was read from: the archive takes that entry's Blob in place of its chunks. */
  const readFrom = new WeakMap<Uint8Array, ZipEntry>();
  const placed = new Set<ZipEntry>();
  let failure: Error | null = null;
  const writer = new Zip((error, chunk) => {
    if (error) {
      failure = error;
      return;
    }
    const entry = readFrom.get(chunk);
    if (!entry) parts.push(chunk as Uint8Array<ArrayBuffer>);
    else if (!placed.has(entry)) {
      placed.add(entry);
      parts.push(entry.file);
    }
  });
  for (const entry of entries) {
    const file = new ZipPassThrough(entry.name);
    writer.add(file);
    const reader = entry.file.stream().getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      readFrom.set(read.value, entry);
      file.push(read.value);
    }
    const end = new Uint8Array(0);
    readFrom.set(end, entry);
    file.push(end, true);
    if (failure) throw failure;
  }
  writer.end();
  if (failure) throw failure;
  return new Blob(parts, { type: 'application/zip' });
}

const api: ZipWorkerApi = { zip };
Comlink.expose(api);
