import * as Comlink from 'comlink';
import { zipSync, type Zippable } from 'fflate';
import type { ZipEntry } from './contract';

/**
 * One archive of already-compressed images: entries are stored (level 0), not deflated again. It comes back
 * as a Blob, a handle, so the UI thread never copies the archive.
 */
async function zip(entries: ZipEntry[]): Promise<Blob> {
  const files: Zippable = {};
  for (const entry of entries) files[entry.name] = [new Uint8Array(await entry.file.arrayBuffer()), { level: 0 }];
  // Already in a worker: fflate's async mode would only spawn more workers.
  const archive = zipSync(files, { level: 0 });
  return new Blob([archive as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}

const api = { zip };
export type ZipWorkerApi = typeof api;
Comlink.expose(api);
