/**
 * The File System Access API's folder dialog (`showDirectoryPicker`, Chromium on a desktop), or null where the browser
 * has none. `T` is the slice of the folder's handle the caller uses.
 */
export type PickFolder<T> = (options: { mode: 'read' | 'readwrite'; id?: string; startIn?: string }) => Promise<T>;

export function folderPicker<T>(): PickFolder<T> | null {
  const pick = (window as Window & { showDirectoryPicker?: PickFolder<T> }).showDirectoryPicker;
  return typeof pick === 'function' ? pick.bind(window) : null;
}

/**
 * A folder picked in the dialog `pick` opens, or null when the visitor closed it. Must be called from the tap itself
 * (the dialog needs the page's user activation).
 */
export async function pickFolder<T>(pick: PickFolder<T>, options: Parameters<PickFolder<T>>[0]): Promise<T | null> {
  try {
    return await pick(options);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw error;
  }
}
