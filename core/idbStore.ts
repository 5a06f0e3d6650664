import { promisifyRequest, type UseStore } from 'idb-keyval';

/**
 * An idb-keyval store (one object store in a database of its own) whose connection is closed when another page asks
 * to delete or upgrade the database (`versionchange`): idb-keyval's own createStore keeps it open, and the other page's
 * request then waits for as long as this page lives. The next use opens it again.
 */
export function closingStore(dbName: string, storeName: string): UseStore {
  let db: Promise<IDBDatabase> | null = null;
  const open = () => {
    const request = indexedDB.open(dbName);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    const opened = promisifyRequest(request).then((connection) => {
      connection.onversionchange = connection.onclose = () => {
        connection.close();
        if (db === opened) db = null;
      };
      return connection;
    });
    opened.catch(() => {
      if (db === opened) db = null;
    });
    return opened;
  };
  return (mode, callback) => (db ??= open()).then((connection) => callback(connection.transaction(storeName, mode).objectStore(storeName)));
}
