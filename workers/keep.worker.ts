import * as Comlink from 'comlink';
import type { KeepWorkerApi } from '../core/contract.ts';
import { writeDeviceFile } from '../core/deviceFiles.ts';

/**
 * Copies a job's source onto the device as the job is queued, a slice at a time (src/conversion/deviceBatch.ts): the
 * visitor's own file handle does not survive a reload, the copy does.
 */
const api: KeepWorkerApi = {
  keep: async (file, place) => (await writeDeviceFile(place, file, file.type)).kept,
};
Comlink.expose(api);
