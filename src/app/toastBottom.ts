/**
 * How far above the bottom toasts sit on a phone: the action bar's height, which the bar reports. A small store of
 * its own rather than a CSS variable on the root, whose every change restyled the whole page (a long frame mid-batch);
 * the toaster writes it to its own container, which restyles the toasts alone.
 */
let toastBottom = 112;
const toastBottomListeners = new Set<() => void>();

export function setToastBottom(pixels: number): void {
  if (pixels === toastBottom) return;
  toastBottom = pixels;
  for (const listener of toastBottomListeners) listener();
}

export const toastBottomPixels = (): number => toastBottom;

export function subscribeToToastBottom(onChange: () => void): () => void {
  toastBottomListeners.add(onChange);
  return () => toastBottomListeners.delete(onChange);
}
