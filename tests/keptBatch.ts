/**
 * What the tests read and reset of the batch the app keeps on the device (src/conversion/deviceBatch.ts,
 * core/deviceFiles.ts), as async function bodies any runner can evaluate in a page of the app's origin: Playwright's
 * Chromium and the engines' Firefox and WebKitGTK.
 */

/** Runs `use(store)` on an idb-keyval store (database `db`, object store `name`) if the database exists; never creates it. */
const WITH_STORE = `
  const withStore = (db, name, mode, use) => new Promise((resolve) => {
    const opening = indexedDB.open(db);
    // No such database yet: leave it so (an empty one would have no store for the app to use).
    opening.onupgradeneeded = () => opening.transaction.abort();
    opening.onerror = () => resolve(null);
    opening.onsuccess = () => {
      const connection = opening.result;
      try {
        const request = use(connection.transaction(name, mode).objectStore(name));
        request.onsuccess = () => { resolve(request.result); connection.close(); };
        request.onerror = () => { resolve(null); connection.close(); };
      } catch { resolve(null); connection.close(); }
    };
  });`;

/**
 * Deletes the batch's record and files, by emptying their stores (deleting a database waits for every page and worker
 * that has it open, and WebKit's back-forward cache keeps some open), from a page that does not run the converter:
 * a page that keeps a batch would write its record again.
 */
export const FORGET_KEPT_BATCH = `${WITH_STORE}
  await withStore('pixel-converter-batch', 'record', 'readwrite', (store) => store.clear());
  await withStore('pixel-converter-files', 'files', 'readwrite', (store) => store.clear());
  if (navigator.storage && navigator.storage.getDirectory) {
    try { await (await navigator.storage.getDirectory()).removeEntry('batch', { recursive: true }); } catch {}
  }
  return true;`;

/** The jobs the batch's record holds (src/conversion/batchRecord.ts: each job a value of its own, { version, job }). */
const RECORDED = `${WITH_STORE}
  const values = await withStore('pixel-converter-batch', 'record', 'readonly', (store) => store.getAll());
  const recorded = (values || []).filter((value) => value && value.job).map((value) => value.job);`;

/** How many jobs the batch's record holds. */
export const RECORDED_JOBS = `${RECORDED}
  return recorded.length;`;

/** How many of the record's completed jobs carry a look. */
export const RECORDED_LOOKS = `${RECORDED}
  return recorded.filter((job) => job.output && job.output.look).length;`;

/** The names of the files the batch keeps (source-<job>, output-<job>.<extension>), in whichever store the browser gave it. */
export const KEPT_FILES = `${WITH_STORE}
  const names = [];
  if (navigator.storage && navigator.storage.getDirectory) {
    try {
      for await (const name of (await (await navigator.storage.getDirectory()).getDirectoryHandle('batch')).keys()) names.push(name);
    } catch {}
  }
  const keys = await withStore('pixel-converter-files', 'files', 'readonly', (store) => store.getAllKeys());
  return names.concat(keys || []).sort();`;

/**
 * The sizes of the sources kept so far, in bytes: a copy in progress is a shorter file, so a source is whole (a later
 * page can resume its job) when its size is the picked file's.
 */
export const KEPT_SOURCE_SIZES = `${WITH_STORE}
  const sizes = [];
  if (navigator.storage && navigator.storage.getDirectory) {
    try {
      const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('batch');
      for await (const [name, handle] of folder.entries()) if (name.startsWith('source-')) sizes.push((await handle.getFile()).size);
    } catch {}
  }
  const stored = await withStore('pixel-converter-files', 'files', 'readonly', (store) => store.getAll(IDBKeyRange.bound('source-', 'source-\\uffff')));
  for (const { bytes } of stored || []) sizes.push(bytes.byteLength);
  return sizes;`;
