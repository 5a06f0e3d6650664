import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { convertAll, downloadAllZip, magicFormat } from './convert-helpers.ts';
import { fileCard, fixtureBytes, openConverter } from './helpers.ts';

/**
 * A folder of photos, picked whole ("Add a folder": Chromium's folder dialog, elsewhere `webkitdirectory`) or dragged
 * from the file manager onto the drop zone (the Entries API): its images come in with the folders they sat in, what is not an image is counted, and the
 * zip, "Save all to folder…" and a reload keep the tree. The drag is Chromium's own, from disk paths (DevTools'
 * Input.dispatchDragEvent), as a file manager's drop arrives.
 */

/** Holiday/ as a visitor's disk holds it: two folders, the same name in each, a loose photo and a note. */
const TREE: Record<string, string | null> = {
  'Holiday/Beach/a.jpg': FIXTURES.jpeg,
  'Holiday/Beach/b.png': FIXTURES.png,
  'Holiday/City/a.jpg': FIXTURES.camera,
  'Holiday/c.webp': FIXTURES.webp,
  'Holiday/notes.txt': null,
};
const OUTPUTS = ['Holiday/Beach/a.webp', 'Holiday/Beach/b.webp', 'Holiday/City/a.webp', 'Holiday/c.webp'];

let root = '';

test.beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'folder-pick-'));
  for (const [path, fixture] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), fixture ? fixtureBytes(fixture) : 'Remember the sunscreen.\n');
  }
});

test.afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The folder dialog cannot be driven headless: "Save all to folder…" is handed a real folder of the origin's private
 * file system instead (the same FileSystemDirectoryHandle interface a picked folder has), which the test then reads.
 */
async function pickPrivateFolder(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'showDirectoryPicker', {
      configurable: true,
      value: async () => (await navigator.storage.getDirectory()).getDirectoryHandle('Picked', { create: true }),
    });
  });
}

/** Every file under the private folder "Picked", by path, with its first bytes. */
function savedTree(page: Page): Promise<Record<string, number[]>> {
  return page.evaluate(async () => {
    type Handle = { kind: 'file' | 'directory'; name: string; getFile(): Promise<File>; values(): AsyncIterable<Handle> };
    const found: Record<string, number[]> = {};
    const walk = async (folder: Handle, path: string) => {
      for await (const handle of folder.values()) {
        if (handle.kind === 'directory') await walk(handle, `${path}${handle.name}/`);
        else found[`${path}${handle.name}`] = [...new Uint8Array(await (await handle.getFile()).slice(0, 16).arrayBuffer())];
      }
    };
    const picked = await (await navigator.storage.getDirectory()).getDirectoryHandle('Picked');
    await walk(picked as unknown as Handle, '');
    return found;
  });
}

test('a folder picked with the file input (where there is no folder dialog) comes in with its tree: its images with their folders, the rest counted; the zip, the saved folder and a reload keep the tree', async ({ page }) => {
  await pickPrivateFolder(page);
  await openConverter(page);
  await page.getByTestId('folder-input').setInputFiles(join(root, 'Holiday'));
  await expect(page.getByText('Added 4 images')).toBeVisible();
  await expect(page.getByText('1 file skipped: not images.')).toBeVisible();
  await expect(page.getByText('Ready to convert')).toHaveCount(4);
  await expect(page.getByTestId('file-card').filter({ hasText: 'in Holiday/Beach' })).toHaveCount(2);
  await expect(page.getByTestId('file-card').filter({ hasText: 'in Holiday/City' })).toHaveCount(1);

  await convertAll(page, 4);
  // The two a.jpg are told apart by their folders in the queue too.
  await expect(page.getByTestId('job').filter({ hasText: 'Holiday/City/a.jpg' })).toHaveCount(1);
  await expect(page.getByTestId('job').filter({ hasText: 'Holiday/Beach/a.jpg' })).toHaveCount(1);
  const zip = await downloadAllZip(page);
  expect(Object.keys(zip).sort()).toEqual(OUTPUTS);
  for (const bytes of Object.values(zip)) expect(magicFormat(bytes)).toBe('webp');

  await page.getByRole('button', { name: 'Save all to folder…' }).click();
  await expect(page.getByText('Saved 4 images', { exact: true })).toBeVisible();
  const saved = await savedTree(page);
  expect(Object.keys(saved).sort()).toEqual(OUTPUTS);
  for (const [path, head] of Object.entries(saved)) expect(Buffer.from(head).equals(zip[path]!.subarray(0, 16)), path).toBe(true);

  // The batch kept on the device comes back with its folders.
  await page.reload();
  await expect(page.getByText('Your last batch is back')).toBeVisible();
  await expect(page.locator('[data-testid="job"][data-status="completed"]')).toHaveCount(4);
  expect(Object.keys(await downloadAllZip(page)).sort()).toEqual(OUTPUTS);
});

test('"Add a folder" in Chromium opens its folder dialog: the folder picked comes in with its tree, the rest counted', async ({ page }) => {
  await openConverter(page);
  // The dialog cannot be driven headless: it gives a real folder of the origin's private file system holding the tree
  // (the same FileSystemDirectoryHandle a folder picked on the disk is), and says how it was asked.
  // With an iPhone's photo as its camera names it: Chromium gives a HEIC from a handle no type.
  const withHeic = { ...TREE, 'Holiday/IMG_0001.HEIC': FIXTURES.heic };
  const tree = Object.fromEntries(Object.entries(withHeic).map(([path, fixture]) => [path, [...(fixture ? fixtureBytes(fixture) : Buffer.from('Remember the sunscreen.\n'))]]));
  await page.evaluate(async (tree) => {
    type Folder = FileSystemDirectoryHandle;
    const root = await navigator.storage.getDirectory();
    for (const [path, bytes] of Object.entries(tree)) {
      const parts = path.split('/');
      let folder: Folder = root;
      for (const name of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(name, { create: true });
      const writable = await (await folder.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
      await writable.write(new Uint8Array(bytes));
      await writable.close();
    }
    const asked: unknown[] = [];
    Object.defineProperty(window, 'showDirectoryPicker', {
      configurable: true,
      value: async (options: unknown) => {
        asked.push(options);
        return root.getDirectoryHandle('Holiday');
      },
    });
    (window as unknown as { __asked: unknown[] }).__asked = asked;
  }, tree);
  const choosers: unknown[] = [];
  page.on('filechooser', (chooser) => choosers.push(chooser));
  await page.getByRole('button', { name: 'Add a folder' }).click();
  await expect(page.getByText('Added 5 images')).toBeVisible();
  await expect(page.getByText('1 file skipped: not images.')).toBeVisible();
  await expect(page.getByTestId('file-card').filter({ hasText: 'in Holiday/Beach' })).toHaveCount(2);
  await expect(page.getByTestId('file-card').filter({ hasText: 'in Holiday/City' })).toHaveCount(1);
  await expect(fileCard(page, 'IMG_0001.HEIC')).toContainText('Ready to convert');
  expect(await page.evaluate(() => (window as unknown as { __asked: unknown[] }).__asked)).toEqual([{ mode: 'read', id: 'pixel-converter-sources', startIn: 'pictures' }]);
  expect(choosers, 'the file input opened as well').toHaveLength(0);
});

test('"Add a folder" where the browser has no folder dialog (Firefox, Safari) opens the file input\'s folder picker', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(window, 'showDirectoryPicker', { configurable: true, value: undefined }));
  await openConverter(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Add a folder' }).click();
  await (await chooser).setFiles(join(root, 'Holiday'));
  await expect(page.getByText('Added 4 images')).toBeVisible();
  await expect(page.getByTestId('file-card').filter({ hasText: 'in Holiday/Beach' })).toHaveCount(2);
});

/** Drags paths from the disk onto the drop zone and drops them, as a file manager does (Chromium's own drag data). */
async function dropFromDisk(page: Page, paths: string[]): Promise<void> {
  const zone = await page.getByTestId('drop-zone').boundingBox();
  if (!zone) throw new Error('No drop zone on the page');
  const at = { x: zone.x + zone.width / 2, y: zone.y + zone.height / 2 };
  const session = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await session.send('Input.dispatchDragEvent', { type, ...at, data });
  await session.detach();
}

test('a folder dragged from the disk onto the drop zone comes in with its tree, the rest counted, and the zip keeps it', async ({ page }) => {
  await openConverter(page);
  await dropFromDisk(page, [join(root, 'Holiday')]);
  await expect(page.getByText('Added 4 images')).toBeVisible();
  await expect(page.getByText('1 file skipped: not images.')).toBeVisible();
  await expect(page.getByTestId('file-card').filter({ hasText: 'in Holiday/Beach' })).toHaveCount(2);
  await convertAll(page, 4);
  expect(Object.keys(await downloadAllZip(page)).sort()).toEqual(OUTPUTS);
});

test('loose files dropped from the disk come in as before: images only, nothing counted, no folder', async ({ page }) => {
  await openConverter(page);
  await dropFromDisk(page, [join(root, 'Holiday/c.webp'), join(root, 'Holiday/notes.txt')]);
  await expect(page.getByText('Added 1 image')).toBeVisible();
  await expect(page.getByText(/skipped/)).toHaveCount(0);
  await expect(page.getByTestId('file-card')).toHaveCount(1);
  await expect(page.getByTestId('file-card').filter({ hasText: 'in Holiday' })).toHaveCount(0);
});

