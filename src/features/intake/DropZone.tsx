import { memo, useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { SOURCE_LABELS } from '../../../core/formats.ts';
import { folderPicker, pickFolder } from '../../lib/folderPicker.ts';
import type { EntryLike, FolderHandleLike, Intake, IncomingFile } from './folders.ts';
import { imagesOnly } from './imagesOnly.ts';

interface DropZoneProps {
  /** Images to add (with the folder each sat in), and how many other files a dropped or picked folder held. */
  onFiles: (files: readonly (File | IncomingFile)[], notImages?: number) => void;
}

export const DropZone = memo(function DropZone({ onFiles }: DropZoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const folderInputRef = useRef<HTMLInputElement>(null);
  const [dragOver, setDragOver] = useState(false);

  const take = ({ images, skipped }: Intake) => {
    if (images.length > 0 || skipped > 0) onFiles(images, skipped);
  };

  // Pasting an image (Ctrl/Cmd+V) anywhere on the page adds it, unless the user is typing into a field.
  useEffect(() => {
    function onPaste(event: ClipboardEvent) {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, [contenteditable="true"]')) return;
      const pasted = imagesOnly(event.clipboardData?.files ?? []);
      if (pasted.length === 0) return;
      event.preventDefault();
      onFiles(pasted);
    }
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [onFiles]);

  /**
   * "Add a folder": Chromium's folder dialog where it has one (walked a listing and a file at a time: folders.ts), else
   * the file input's folder picker (a phone's picks files). A folder the dialog cannot give (a system folder it
   * refuses) falls back to the input too.
   */
  async function addFolder() {
    const pick = folderPicker<FolderHandleLike>();
    if (pick) {
      const picked = await pickFolder(pick, { mode: 'read', id: 'pixel-converter-sources', startIn: 'pictures' }).catch(() => undefined);
      if (picked === null) return;
      if (picked) {
        const { walkPickedFolder } = await import('./folders.ts');
        take(await walkPickedFolder(picked));
        return;
      }
    }
    folderInputRef.current?.click();
  }

  function openPicker() {
    inputRef.current?.click();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openPicker();
    }
  }

  function onDragEnter(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragOver(true);
  }

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    if (!dragOver) setDragOver(true);
  }

  function onDragLeave(event: DragEvent<HTMLDivElement>) {
    // Moving over a child fires dragleave on the parent; only leaving the zone itself counts.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    setDragOver(false);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragOver(false);
    if (!event.dataTransfer) return;
    // The entries must be taken while the event runs (the list empties after). A dropped folder is walked for its
    // images, keeping where each sat (folders.ts, loaded then); loose files are as before: the images, the rest
    // silently ignored (the spec).
    const entries = [...event.dataTransfer.items]
      .filter((item) => item.kind === 'file' && typeof item.webkitGetAsEntry === 'function')
      .map((item) => item.webkitGetAsEntry())
      .filter((entry): entry is FileSystemEntry => entry !== null);
    if (entries.some((entry) => entry.isDirectory)) {
      void import('./folders.ts').then(({ walkEntries }) => walkEntries(entries as unknown as EntryLike[])).then(take);
      return;
    }
    const dropped = imagesOnly(event.dataTransfer.files);
    if (dropped.length > 0) onFiles(dropped);
  }

  return (
    <>
      <div
        className={`drop-zone${dragOver ? ' drop-zone--over' : ''}`}
        role="button"
        tabIndex={0}
        aria-label="Add images: tap here or drag and drop images"
        aria-describedby="drop-zone-limits"
        data-testid="drop-zone"
        onClick={openPicker}
        onKeyDown={onKeyDown}
        onDragEnter={onDragEnter}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <svg className="drop-zone__icon" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
        </svg>
        <p className="drop-zone__title">{dragOver ? 'Drop images here' : 'Add Images'}</p>
        <p className="drop-zone__hint">{dragOver ? 'Release to upload' : 'Tap here or drag & drop images'}</p>
        <p className="drop-zone__limits" id="drop-zone-limits">
          Max 25 MB • {SOURCE_LABELS.join(', ')}
        </p>
        <input
          ref={inputRef}
          type="file"
          accept="image/*"
          multiple
          hidden
          data-testid="file-input"
          onChange={(event) => {
            const picked = [...(event.target.files ?? [])];
            // Reset so that picking the same file again fires change again.
            event.target.value = '';
            if (picked.length > 0) onFiles(picked);
          }}
        />
      </div>
      {/* Prerendered too (no shift as the page hydrates); where the picker takes no folder (a phone's), it picks files. */}
      <p className="drop-zone__folder">
        <button type="button" className="link-button" onClick={() => void addFolder()}>
          Add a folder
        </button>
        <input
          ref={folderInputRef}
          type="file"
          multiple
          hidden
          data-testid="folder-input"
          {...{ webkitdirectory: '' }}
          onChange={(event) => {
            const picked = [...(event.target.files ?? [])];
            event.target.value = '';
            void import('./folders.ts').then(({ pickedFolder }) => take(pickedFolder(picked)));
          }}
        />
      </p>
    </>
  );
});
