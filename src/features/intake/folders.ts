import { folderOfPath } from '../../lib/fileNames.ts';
import { imagesOnly } from './imagesOnly.ts';

/**
 * Folders dropped or picked: every file in them, with the folder it sat in (relative to what was dropped or picked,
 * its own name first), images kept and the rest counted. What the zip and "Save all to folder…" rebuild the tree from.
 * Loaded when a folder comes (DropZone.tsx), not with the page.
 */

/** A file to add, and the folder it sat in ('' for a loose file). */
export interface IncomingFile {
  file: File;
  folder: string;
}

/** What a drop or a folder pick brings: its images, and how many other files it held. */
export interface Intake {
  images: IncomingFile[];
  skipped: number;
}

/** The slice of the File and Directory Entries API a walk needs (what `DataTransferItem.webkitGetAsEntry()` gives). */
export interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
}
interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void;
}
interface DirectoryEntryLike extends EntryLike {
  createReader(): { readEntries(success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void): void };
}

const isDirectory = (entry: EntryLike): entry is DirectoryEntryLike => entry.isDirectory;
const isFile = (entry: EntryLike): entry is FileEntryLike => entry.isFile;

/** A directory's entries: its reader gives them a block at a time (100 in Chromium) until it gives none. */
async function entriesOf(directory: DirectoryEntryLike): Promise<EntryLike[]> {
  const reader = directory.createReader();
  const all: EntryLike[] = [];
  for (;;) {
    const block = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (block.length === 0) return all;
    all.push(...block);
  }
}

/**
 * Every file under the dropped entries, depth first, in name order, each with its folder; a file that cannot be read
 * (gone, or refused) is counted with the skipped ones.
 */
export async function walkEntries(entries: readonly EntryLike[]): Promise<Intake> {
  const found: IncomingFile[] = [];
  let unreadable = 0;
  const visit = async (entry: EntryLike): Promise<void> => {
    if (isDirectory(entry)) {
      const children = (await entriesOf(entry).catch(() => [])).sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
      for (const child of children) await visit(child);
    } else if (isFile(entry)) {
      const file = await new Promise<File | null>((resolve) => entry.file(resolve, () => resolve(null)));
      if (file) found.push({ file, folder: folderOfPath(entry.fullPath) });
      else unreadable++;
    }
  };
  for (const entry of entries) await visit(entry);
  return keepImages(found, unreadable);
}

/** The images among `files`; the others, and `alreadySkipped`, counted. */
function keepImages(files: readonly IncomingFile[], alreadySkipped = 0): Intake {
  const images = new Set(imagesOnly(files.map(({ file }) => file)));
  const kept = files.filter(({ file }) => images.has(file));
  return { images: kept, skipped: alreadySkipped + files.length - kept.length };
}

/** A picked folder (`<input webkitdirectory>`): each file says where it sat in `webkitRelativePath`. */
export function pickedFolder(files: Iterable<File>): Intake {
  return keepImages([...files].map((file) => ({ file, folder: folderOfPath(file.webkitRelativePath) })));
}
