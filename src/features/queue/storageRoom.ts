import { formatBytes } from '../../lib/formatBytes.ts';

/** What the browser says of the origin's storage (navigator.storage.estimate()). */
export interface StorageRoom {
  quota: number;
  usage: number;
}

/** A batch that would not fit: what it would keep on the device, and the room left. */
export interface StorageShortfall {
  needBytes: number;
  freeBytes: number;
}

/**
 * What the browser lets this origin keep, and what it keeps already; null where it does not say (no Storage API, or
 * it refused).
 */
export async function readStorageRoom(): Promise<StorageRoom | null> {
  try {
    const { quota, usage } = (await navigator.storage?.estimate?.()) ?? {};
    return typeof quota === 'number' && typeof usage === 'number' ? { quota, usage } : null;
  } catch {
    return null;
  }
}

/**
 * Whether a batch fits the device: each job keeps its source (copied as it is queued) and its output there
 * (deviceBatch.ts), so it needs their sum beside what the origin keeps already. Null where it fits, or where the
 * browser says nothing of its room.
 */
export function storageShortfall(sourceBytes: number, outputBytes: number, room: StorageRoom | null): StorageShortfall | null {
  if (!room) return null;
  const needBytes = sourceBytes + outputBytes;
  const freeBytes = Math.max(0, room.quota - room.usage);
  return needBytes > freeBytes ? { needBytes, freeBytes } : null;
}

/** What the action bar says of it before Convert, and what happens then (ConversionQueue.storageFull). */
export function shortfallText({ needBytes, freeBytes }: StorageShortfall): string {
  return `This batch needs about ${formatBytes(needBytes)} on this device, and the browser has ${formatBytes(freeBytes)} left: what does not fit stays in memory, so download before you leave.`;
}
