import { imagesOnly } from './imagesOnly.ts';

/**
 * Files picked or dropped after the first paint but before React has the page (the page is painted from
 * index.html; its script comes after): kept here instead of being lost, or a drop opening the image in the tab.
 * boot.ts starts keeping them; main.tsx stops just before React takes over, and the intake adds them as if just picked.
 */

let kept: File[] = [];
let stop: (() => void) | null = null;

export function keepEarlyFiles(): void {
  const keep = (files: FileList | null | undefined) => {
    for (const file of files ?? []) kept.push(file);
  };
  const onChange = (event: Event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement && target.type === 'file') keep(target.files);
  };
  const onDragOver = (event: DragEvent) => event.preventDefault();
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    keep(event.dataTransfer?.files);
  };
  document.addEventListener('change', onChange, true);
  document.addEventListener('dragover', onDragOver, true);
  document.addEventListener('drop', onDrop, true);
  stop = () => {
    document.removeEventListener('change', onChange, true);
    document.removeEventListener('dragover', onDragOver, true);
    document.removeEventListener('drop', onDrop, true);
  };
}

/** Called once, just before React takes the page over: from then on React's own handlers see every pick and drop. */
export function stopKeepingEarlyFiles(): void {
  stop?.();
  stop = null;
  kept = imagesOnly(kept);
}

/** The kept files, once. */
export function takeEarlyFiles(): File[] {
  const files = kept;
  kept = [];
  return files;
}
