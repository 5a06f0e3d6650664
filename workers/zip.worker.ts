import * as Comlink from 'comlink';
import { chunksOf } from '../core/blob-chunks.ts';
import type { ZipEntry, ZipWorkerApi } from '../core/contract.ts';
import { storedZip } from './stored-zip.ts';

/**
 * One archive of already-compressed images, entries stored (not deflated again), Zip64 where it needs it
 * (stored-zip.ts). The archive is a Blob of headers and the outputs' own Blobs, so the outputs are never held twice;
 * it comes back as a handle: the UI thread never copies the archive.
 */
const api: ZipWorkerApi = { zip: (entries: ZipEntry[]) => storedZip(entries, { chunks: chunksOf }) };
Comlink.expose(api);
