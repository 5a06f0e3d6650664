import { del, delMany, get, keys, set, type UseStore } from 'idb-keyval';
import { chunksOf } from './blob-chunks.ts';
import { closingStore } from './idbStore.ts';

/**
 * The batch's files on the device (its sources while unfinished, its outputs): in a folder of the origin private
 * file system where the browser has one, in IndexedDB where it has not (WebKitGTK as Debian ships it, a private
 * window). Both threads use it: a worker writes what it made or copied (writeDeviceFile), the page reads, lists and
 * deletes (src/conversion/deviceBatch.ts).
 */

export const BATCH_FOLDER = 'batch';

export type DeviceStore = 'opfs' | 'indexeddb';

/** Where a file of the batch goes. */
export interface DevicePlace {
  store: DeviceStore;
  name: string;
  /** The storage layer's own limit on one file's bytes (how a test fills the device); null: the browser's quota. */
  limitBytes: number | null;
}

/** Where a file ended up: on the device, or in memory because the device refused it or is full. */
export type Kept = 'device' | 'memory' | 'storage-full';

export type WriteOutcome = { kept: 'device'; blob: Blob } | { kept: 'memory' | 'storage-full' };

/** What IndexedDB holds for a file: its bytes, copied (not every engine stores a Blob there: WebKit's private sessions do not). */
interface StoredBytes {
  type: string;
  bytes: ArrayBuffer;
}

let filesDb: UseStore | null = null;
const indexedFiles = () => (filesDb ??= closingStore('pixel-converter-files', 'files'));

const folder = async () => (await navigator.storage.getDirectory()).getDirectoryHandle(BATCH_FOLDER, { create: true });

/** Which store this browser lets the page keep files in, or null when it has neither. */
export async function usableStore(): Promise<DeviceStore | null> {
  try {
    if (typeof navigator.storage?.getDirectory === 'function') {
      await folder();
      return 'opfs';
    }
  } catch {
    // An origin private file system that refuses (WebKit's ephemeral sessions): try IndexedDB.
  }
  try {
    if (typeof indexedDB === 'undefined') return null;
    await set('probe', { type: '', bytes: new ArrayBuffer(1) } satisfies StoredBytes, indexedFiles());
    await del('probe', indexedFiles());
    return 'indexeddb';
  } catch {
    return null;
  }
}

/** The fast, exclusive writer a worker has on an OPFS file; typed here since the page's DOM types lack it. */
interface SyncAccess {
  write(buffer: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}
interface FileWriters {
  createSyncAccessHandle?: () => Promise<SyncAccess>;
  createWritable?: () => Promise<{ write(data: Blob | ArrayBuffer): Promise<void>; close(): Promise<void>; abort(): Promise<void> }>;
}

const sizeOf = (data: ArrayBuffer | Blob) => (data instanceof Blob ? data.size : data.byteLength);

async function* chunksOfData(data: ArrayBuffer | Blob): AsyncGenerator<Uint8Array> {
  if (data instanceof Blob) yield* chunksOf(data);
  else yield new Uint8Array(data);
}

async function writeOpfs(name: string, data: ArrayBuffer | Blob): Promise<File> {
  const handle = await (await folder()).getFileHandle(name, { create: true });
  const writers = handle as unknown as FileWriters;
  if (writers.createWritable && (data instanceof Blob || !writers.createSyncAccessHandle)) {
    // A Blob (a visitor's source, an output the browser encoded) is handed to the browser whole: it copies the bytes
    // itself, and none pass through this thread. Read here a chunk at a time instead, a 1,000-photo folder's sources
    // (2.25 GB, copied in the batch's first 20 s) piled up in the copying worker as chunks awaiting its garbage
    // collector, and made the batch's highest point of memory, +170 MB (docs/decisions/memory-budget.md).
    const writable = await writers.createWritable.call(handle);
    try {
      await writable.write(data);
      await writable.close();
    } catch (error) {
      await writable.abort().catch(() => undefined);
      throw error;
    }
  } else if (writers.createSyncAccessHandle) {
    const access = await writers.createSyncAccessHandle.call(handle);
    try {
      access.truncate(0);
      let at = 0;
      for await (const chunk of chunksOfData(data)) {
        // A short write is the device refusing more bytes.
        if (access.write(chunk, { at }) !== chunk.byteLength) throw new DOMException('Short write', 'QuotaExceededError');
        at += chunk.byteLength;
      }
      access.flush();
    } finally {
      access.close();
    }
  } else {
    throw new Error('No way to write this file');
  }
  return handle.getFile();
}

const isQuotaError = (error: unknown) => error instanceof DOMException && error.name === 'QuotaExceededError';

/**
 * Writes a file of the batch and hands back the stored copy (a handle to bytes on disk, where the store is a file
 * system), so the page holds no copy in memory. A full device (QuotaExceededError, or the place's own limit) says so;
 * any other refusal keeps the file in memory, as a browser without this storage does.
 */
export async function writeDeviceFile(place: DevicePlace, data: ArrayBuffer | Blob, type: string): Promise<WriteOutcome> {
  try {
    if (place.limitBytes !== null && sizeOf(data) > place.limitBytes) throw new DOMException('Over the storage limit', 'QuotaExceededError');
    if (place.store === 'opfs') {
      const file = await writeOpfs(place.name, data);
      return { kept: 'device', blob: file.slice(0, file.size, type) };
    }
    const bytes = data instanceof Blob ? await data.arrayBuffer() : data;
    await set(place.name, { type, bytes } satisfies StoredBytes, indexedFiles());
    return { kept: 'device', blob: new Blob([bytes], { type }) };
  } catch (error) {
    // A part-written file is no result: gone, whatever went wrong.
    await deleteDeviceFiles(place.store, [place.name]);
    return { kept: isQuotaError(error) ? 'storage-full' : 'memory' };
  }
}

/** A kept file, or null when it is not there (deleted, or the browser cleared the site's storage). */
export async function readDeviceFile(store: DeviceStore, name: string, type: string): Promise<Blob | null> {
  try {
    if (store === 'opfs') {
      const file = await (await (await folder()).getFileHandle(name)).getFile();
      return file.slice(0, file.size, type);
    }
    const stored = await get<StoredBytes>(name, indexedFiles());
    return stored ? new Blob([stored.bytes], { type }) : null;
  } catch {
    return null;
  }
}

/** Deletes kept files; one already gone is no error. */
export async function deleteDeviceFiles(store: DeviceStore, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  try {
    if (store === 'indexeddb') return await delMany([...names], indexedFiles());
    const dir = await folder();
    await Promise.all(names.map((name) => dir.removeEntry(name).catch(() => undefined)));
  } catch {
    // Nothing to delete from a store that cannot be opened.
  }
}

/** The names of every kept file. */
export async function listDeviceFiles(store: DeviceStore): Promise<string[]> {
  try {
    if (store === 'indexeddb') return (await keys<string>(indexedFiles())).map(String);
    const names: string[] = [];
    for await (const name of (await folder()).keys()) names.push(name);
    return names;
  } catch {
    return [];
  }
}
