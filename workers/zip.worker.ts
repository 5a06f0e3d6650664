import * as Comlink from 'comlink';
import { zipSync, type Zippable } from 'fflate';

export interface ZipEntry {
  name: string;
  file: Blob;
}

/** One archive of already-compressed images: entries are stored (level 0), not deflated again. */
async function zip(entries: ZipEntry[]): Promise<Uint8Array> {
  const files: Zippable = {};
  for (const entry of entries) files[entry.name] = [new Uint8Array(await entry.file.arrayBuffer()), { level: 0 }];
  // Already in a worker: fflate's async mode would only spawn more workers.
  const archive = zipSync(files, { level: 0 });
  return Comlink.transfer(archive, [archive.buffer]);
}

const api = { zip };
export type ZipWorkerApi = typeof api;
Comlink.expose(api);
