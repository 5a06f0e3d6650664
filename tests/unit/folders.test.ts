import { describe, expect, it } from 'vitest';
import { pickedFolder, walkEntries, walkPickedFolder, type EntryLike, type FileHandleLike, type FolderHandleLike } from '../../src/features/intake/folders.ts';

/**
 * A dropped folder as the File and Directory Entries API hands it to the page (webkitGetAsEntry): entries made here
 * stand in for the browser's, which only a real drag from the operating system makes. Chromium's reader gives a
 * directory's entries 100 at a time, so a reader here gives them in blocks too.
 */
function file(fullPath: string, type = 'image/jpeg'): EntryLike & { file: (ok: (file: File) => void, fail: (error: unknown) => void) => void } {
  const name = fullPath.split('/').pop()!;
  return { isFile: true, isDirectory: false, name, fullPath, file: (ok) => ok(new File([new Uint8Array(200)], name, { type })) };
}

function directory(fullPath: string, children: EntryLike[], block = 2): EntryLike & { createReader: () => { readEntries: (ok: (entries: EntryLike[]) => void) => void } } {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.split('/').pop()!,
    fullPath,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          ok(children.slice(at, at + block));
          at += block;
        },
      };
    },
  };
}

describe('a dropped folder', () => {
  it('gives every image under it with the folder it sat in, in name order, and counts what is not an image', async () => {
    const holiday = directory('/Holiday', [
      directory('/Holiday/City', [file('/Holiday/City/a.jpg')]),
      file('/Holiday/notes.txt', 'text/plain'),
      directory('/Holiday/Beach', [file('/Holiday/Beach/img10.png', 'image/png'), file('/Holiday/Beach/img9.jpg'), file('/Holiday/Beach/.DS_Store', '')]),
      file('/Holiday/c.webp', 'image/webp'),
    ]);
    const { images, skipped } = await walkEntries([holiday, file('/loose.jpg')]);
    expect(images.map(({ file, folder }) => `${folder}|${file.name}`)).toEqual(['Holiday/Beach|img9.jpg', 'Holiday/Beach|img10.png', 'Holiday|c.webp', 'Holiday/City|a.jpg', '|loose.jpg']);
    expect(skipped).toBe(2);
  });

  it('a file that cannot be read is counted with the skipped, and the walk goes on', async () => {
    const gone = { ...file('/Trip/gone.jpg'), file: (_ok: (file: File) => void, fail: (error: unknown) => void) => fail(new DOMException('gone', 'NotFoundError')) };
    const { images, skipped } = await walkEntries([directory('/Trip', [gone, file('/Trip/here.jpg')])]);
    expect(images.map(({ file }) => file.name)).toEqual(['here.jpg']);
    expect(skipped).toBe(1);
  });
});

describe('a picked folder (webkitdirectory)', () => {
  it('reads each file\'s folder from its relative path', () => {
    const inFolder = (path: string, type: string) => Object.defineProperty(new File([new Uint8Array(200)], path.split('/').pop()!, { type }), 'webkitRelativePath', { value: path });
    const { images, skipped } = pickedFolder([inFolder('Holiday/Beach/a.jpg', 'image/jpeg'), inFolder('Holiday/readme.md', 'text/markdown'), inFolder('Holiday/b.png', 'image/png')]);
    expect(images.map(({ file, folder }) => `${folder}|${file.name}`)).toEqual(['Holiday/Beach|a.jpg', 'Holiday|b.png']);
    expect(skipped).toBe(1);
  });
});

/** A folder picked in Chromium's folder dialog (showDirectoryPicker), as its handles give it; made here, as the dialog cannot be. */
function pickedFile(name: string, type = 'image/jpeg', readable = true): FileHandleLike {
  return { kind: 'file', name, getFile: async () => (readable ? new File([new Uint8Array(200)], name, { type }) : Promise.reject(new DOMException('gone', 'NotFoundError'))) };
}
function pickedDirectory(name: string, children: (FileHandleLike | FolderHandleLike)[]): FolderHandleLike {
  return {
    kind: 'directory',
    name,
    values: async function* () {
      yield* children;
    },
  };
}

describe('a folder picked in the folder dialog', () => {
  it('gives every image under it with the folder it sat in (its own name first), in name order, and counts the rest and what cannot be read', async () => {
    const holiday = pickedDirectory('Holiday', [
      pickedDirectory('City', [pickedFile('a.jpg')]),
      pickedFile('notes.txt', 'text/plain'),
      pickedDirectory('Beach', [pickedFile('img10.png', 'image/png'), pickedFile('img9.jpg'), pickedFile('gone.jpg', 'image/jpeg', false)]),
      pickedFile('c.webp', 'image/webp'),
    ]);
    const { images, skipped } = await walkPickedFolder(holiday);
    expect(images.map(({ file, folder }) => `${folder}|${file.name}`)).toEqual(['Holiday/Beach|img9.jpg', 'Holiday/Beach|img10.png', 'Holiday|c.webp', 'Holiday/City|a.jpg']);
    expect(skipped).toBe(2);
  });

  it('gives a file with no type of ours the type its name says (Chromium gives a HEIC from a handle none), and leaves the others as they are', async () => {
    const { images, skipped } = await walkPickedFolder(pickedDirectory('Trip', [pickedFile('IMG_0001.HEIC', ''), pickedFile('IMG_0002.heif', ''), pickedFile('scan.tif', ''), pickedFile('notes.md', '')]));
    expect(images.map(({ file }) => `${file.name} ${file.type} ${file.size}`)).toEqual(['IMG_0001.HEIC image/heic 200', 'IMG_0002.heif image/heic 200', 'scan.tif image/tiff 200']);
    expect(skipped).toBe(1);
  });
});
