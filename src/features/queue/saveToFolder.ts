import { useBrowserAbility } from '../../app/useBrowserAbility.ts';
import { numberedFileName } from '../../lib/fileNames.ts';
import { folderPicker, pickFolder } from '../../lib/folderPicker.ts';
import type { ConversionQueue } from '../../conversion/conversionQueue.ts';
import { hasOutput } from './download.ts';
import type { ConversionJob } from '../../conversion/jobs.ts';

/**
 * "Save all to folder…": where the browser has the File System Access API (desktop Chromium), each output is written
 * into a folder the visitor picks, as it finishes: no zip, and no second copy of the outputs in memory. Elsewhere the
 * zip stays the way to take a batch.
 */

interface WritableFile {
  write(data: Blob): Promise<void>;
  close(): Promise<void>;
}
interface FolderFileHandle {
  createWritable(): Promise<WritableFile>;
}
export interface Folder {
  name: string;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FolderFileHandle>;
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<Folder>;
}
const canPickFolder = () => folderPicker() !== null;

/** Whether to offer "Save all to folder…" (useBrowserAbility: not before the page is hydrated). */
export function useCanSaveToFolder(): boolean {
  return useBrowserAbility(canPickFolder);
}

/** The first name not in the folder yet: photo.webp, photo (2).webp… (a folder's existing files are never replaced). */
async function freeName(folder: Folder, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = numberedFileName(name, n);
    try {
      await folder.getFileHandle(candidate);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotFoundError') return candidate;
      throw error;
    }
  }
}

/** The folder at `path` under `root` ("Holiday/Beach"), made where missing; `root` itself for ''. */
async function subfolder(root: Folder, path: string): Promise<Folder> {
  let folder = root;
  for (const name of path.split('/').filter(Boolean)) folder = await folder.getDirectoryHandle(name, { create: true });
  return folder;
}

/** An output into the folder its source sat in, under the picked one: a dropped folder's tree comes back whole. */
async function writeOutput(root: Folder, job: ConversionJob & { outputBlob: Blob; outputName: string }): Promise<void> {
  const folder = await subfolder(root, job.folder);
  const handle = await folder.getFileHandle(await freeName(folder, job.outputName), { create: true });
  const writable = await handle.createWritable();
  await writable.write(job.outputBlob);
  await writable.close();
}

export interface FolderSave {
  folder: string;
  saved: number;
  failed: number;
}

/**
 * Asks for a folder (null if the visitor closes the dialog), then writes every completed output into it, one at a
 * time, and each job of the running batch as it completes, until the batch ends. Must be called from the tap itself.
 */
export async function saveAllToFolder(queue: ConversionQueue): Promise<FolderSave | null> {
  const pick = folderPicker<Folder>();
  const folder = pick && (await pickFolder(pick, { mode: 'readwrite', id: 'pixel-converter-outputs', startIn: 'pictures' }));
  if (!folder) return null;
  const written = new Set<string>();
  const result: FolderSave = { folder: folder.name, saved: 0, failed: 0 };
  let writing = Promise.resolve();
  const writeNewlyCompleted = () => {
    for (const job of queue.getJobs()) {
      if (!hasOutput(job) || written.has(job.id)) continue;
      written.add(job.id);
      writing = writing.then(async () => {
        try {
          await writeOutput(folder, job);
          result.saved++;
          queue.markDelivered([job.id]);
        } catch (error) {
          result.failed++;
          console.error(`Saving ${job.outputName} to the folder failed`, error);
        }
      });
    }
  };
  writeNewlyCompleted();
  const stop = queue.subscribe(writeNewlyCompleted);
  await new Promise<void>((resolve) => queue.whenIdle(resolve));
  stop();
  writeNewlyCompleted();
  await writing;
  return result;
}
