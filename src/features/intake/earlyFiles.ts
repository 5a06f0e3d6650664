declare global {
  interface Window {
    /** Set by index.html's inline script: ends its listening and hands over what it kept. */
    __takeEarlyFiles?: () => File[];
  }
}

let early: File[] = [];

/**
 * Files picked or dropped after the first paint but before the page's script ran (index.html keeps them). Called
 * once, just before React takes the page over, so from then on React's own handlers see every pick and drop.
 */
export function stopKeepingEarlyFiles(): void {
  early = globalThis.window?.__takeEarlyFiles?.().filter((file) => file.type.startsWith('image/')) ?? [];
}

/** The kept files, once: the intake adds them as if just picked. */
export function takeEarlyFiles(): File[] {
  const files = early;
  early = [];
  return files;
}
