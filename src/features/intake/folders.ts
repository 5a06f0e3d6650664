import { formatFromFileName, formatFromMimeType, sourceFormatInfo } from '../../../core/formats.ts';
import { folderOfPath } from '../../lib/fileNames.ts';
import { inTurns } from '../../lib/inTurns.ts';
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

/** The slice of the File System Access API a walk needs: a folder picked with `showDirectoryPicker()`, and its files. */
export interface FolderHandleLike {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<FolderHandleLike | FileHandleLike>;
}
export interface FileHandleLike {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}

/** One place in a dropped or picked tree, whichever API gives it: a folder with its children, or a file. */
interface TreeNode {
  name: string;
  /** Its path under what was dropped or picked, that one's own name first ("Holiday/Beach/photo.jpg"). */
  path: string;
  children?: () => Promise<TreeNode[]>;
  file?: () => Promise<File>;
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

/** A dropped entry as a tree node (its fullPath starts at the drop: "/Holiday/Beach/photo.jpg"). */
function entryNode(entry: EntryLike): TreeNode {
  const node: TreeNode = { name: entry.name, path: entry.fullPath };
  if (isDirectory(entry)) node.children = async () => (await entriesOf(entry)).map(entryNode);
  else if (isFile(entry)) node.file = () => new Promise<File>((resolve, reject) => entry.file(resolve, reject));
  return node;
}

/** A picked folder's handle as a tree node, at `path` under the picked one. */
function handleNode(handle: FolderHandleLike | FileHandleLike, path: string): TreeNode {
  if (handle.kind === 'file') return { name: handle.name, path, file: () => handle.getFile() };
  return {
    name: handle.name,
    path,
    children: async () => {
      const children: TreeNode[] = [];
      for await (const child of handle.values()) children.push(handleNode(child, `${path}/${child.name}`));
      return children;
    },
  };
}

/**
 * A file with no MIME type of ours takes its format's from its name, where the name says one of ours: Chromium gives
 * a HEIC from a folder's handle no type, and a folder of iPhone photos was skipped as not images. The same bytes, a
 * new File around them; the signature check still decides.
 */
function typedByName(file: File): File {
  if (formatFromMimeType(file.type)) return file;
  const format = formatFromFileName(file.name);
  return format ? new File([file], file.name, { type: sourceFormatInfo(format).mimeType, lastModified: file.lastModified }) : file;
}

/** Files read at once once the tree is listed: each is a round trip to the browser's process, none a long task. */
const FILES_READ_AT_ONCE = 8;

/**
 * Every file under `roots`, depth first, in name order, each with its folder; a file that cannot be read (gone, or
 * refused) is counted with the skipped ones, a folder that cannot be listed is left out. The tree is listed first,
 * then its files are read a few at a time, each in a task of its own.
 */
async function walkTree(roots: readonly TreeNode[]): Promise<Intake> {
  const files: TreeNode[] = [];
  const visit = async (node: TreeNode): Promise<void> => {
    if (node.children) {
      const children = (await node.children().catch(() => [])).sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
      for (const child of children) await visit(child);
    } else if (node.file) files.push(node);
  };
  for (const root of roots) await visit(root);
  const read = await inTurns(files, FILES_READ_AT_ONCE, (node) => node.file!().then((file) => ({ file: typedByName(file), folder: folderOfPath(node.path) }), () => null));
  const found = read.filter((incoming) => incoming !== null);
  return keepImages(found, read.length - found.length);
}

/** What a drop of folders (and files beside them) brings: every file under them, each with its folder. */
export function walkEntries(entries: readonly EntryLike[]): Promise<Intake> {
  return walkTree(entries.map(entryNode));
}

/**
 * A folder picked with `showDirectoryPicker()` (Chromium on a desktop): walked as a drop is, a folder listing and a
 * file at a time. The `<input webkitdirectory>` hands its files over all at once, and for 1,000 of them Chromium's
 * making of the file list was one task of 380 ms before any of the page's code ran.
 */
export function walkPickedFolder(folder: FolderHandleLike): Promise<Intake> {
  return walkTree([handleNode(folder, folder.name)]);
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
