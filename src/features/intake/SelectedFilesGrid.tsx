import { lazy, memo, Suspense, useCallback, useEffect, useRef, type FocusEvent } from 'react';
import { CountedSection } from '../../app/CountedSection';
import { formatMegabytes } from '../../lib/formatBytes';
import { countOf } from '../../lib/plural';
import { type FileState } from '../queue/convertPlan';
import type { SelectedFile } from './useSelectedFiles';
import { FileCard } from './FileCard';

interface SelectedFilesGridProps {
  files: readonly SelectedFile[];
  /** Each valid file's state with the current settings (converted, converting…), by id. */
  states: ReadonlyMap<string, FileState>;
  onRemove: (id: string) => void;
  onClear: () => void;
  onPreview: (file: File, opener: HTMLElement) => void;
}

/** Memoised: the states map is kept while nothing changed, so a job starting or ending elsewhere re-renders no card. */
export const SelectedFilesGrid = memo(function SelectedFilesGrid({ files, states, onRemove, onClear, onPreview }: SelectedFilesGridProps) {
  const list = useRef<HTMLDivElement>(null);
  const filesNow = useRef(files);
  filesNow.current = files;
  /** The removed card and where it was, so focus can go to the card that takes its place instead of the page. */
  const removed = useRef<{ id: string; index: number } | null>(null);
  const remove = useCallback(
    (id: string) => {
      removed.current = { id, index: filesNow.current.findIndex((f) => f.id === id) };
      onRemove(id);
    },
    [onRemove],
  );
  /**
   * The card's button last focused, by card and button: a long grid's first cards are a stand-in until its code has
   * loaded, and when the grid takes their place the focused button goes with them (to the page, a keyboard user's
   * place lost). The grid tells each time it has rendered, and focus goes to the same button on its own card.
   */
  const focused = useRef<{ button: HTMLElement; id: string; kind: string } | null>(null);
  const noteFocus = useCallback((event: FocusEvent<HTMLDivElement>) => {
    const button = event.target;
    const id = button.closest<HTMLElement>('[data-id]')?.dataset.id;
    const kind = [...button.classList].find((name) => name.startsWith('file-card__'));
    focused.current = id && kind ? { button, id, kind } : null;
  }, []);
  const keepFocus = useCallback(() => {
    const last = focused.current;
    const active = document.activeElement;
    // Only when the button went with its card and focus went nowhere else (a removal has its own rule, below).
    if (!last || last.button.isConnected || (active && active !== document.body)) return;
    list.current?.querySelector<HTMLElement>(`[data-id="${CSS.escape(last.id)}"] .${last.kind}`)?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const pending = removed.current;
    // An earlier change's effect can run after the click and before the removal is rendered: wait for the removal.
    if (!pending || files.some((f) => f.id === pending.id)) return;
    removed.current = null;
    // The card now at the removed one's place (a long grid keeps only the cards near the screen, so by id).
    const nextFile = files[Math.min(pending.index, files.length - 1)];
    const next = nextFile
      ? list.current?.querySelector<HTMLButtonElement>(`[data-id="${nextFile.id}"] .file-card__remove`)
      : document.querySelector<HTMLElement>('[data-testid="drop-zone"]');
    next?.focus();
  }, [files]);

  if (files.length === 0) return null;
  const valid = files.filter((f) => f.isValid);
  const totalBytes = valid.reduce((sum, f) => sum + f.file.size, 0);
  const plainGrid = (shown: readonly SelectedFile[]) => (
    <ul className="file-grid">
      {shown.map((file) => (
        <FileCard key={file.id} file={file} state={states.get(file.id) ?? 'ready'} onRemove={remove} onPreview={onPreview} />
      ))}
    </ul>
  );
  return (
    <CountedSection
      title="Selected Files"
      count={files.length}
      actions={
        <button type="button" className="link-button" onClick={onClear}>
          Clear all
        </button>
      }
    >
      {/* data-previews: how many previews are made (a long grid has only some cards in the page); the bench waits on it. */}
      <p className="summary" data-testid="selection-summary" data-previews={files.filter((f) => f.thumbnailUrl !== null).length}>
        {countOf(valid.length, 'valid image')} • {formatMegabytes(totalBytes)}
        {files.length > valid.length ? ` • ${countOf(files.length - valid.length, 'file')} with errors` : ''}
      </p>
      <div ref={list} onFocus={noteFocus}>
        {files.length < VIRTUAL_GRID_FROM ? (
          plainGrid(files)
        ) : (
          <Suspense fallback={plainGrid(files.slice(0, FIRST_CARDS))}>
            <VirtualFileGrid files={files} states={states} onRemove={remove} onPreview={onPreview} onRendered={keepFocus} />
          </Suspense>
        )}
      </div>
    </CountedSection>
  );
});

/** From this many files the grid keeps only the cards near the screen in the page. */
export const VIRTUAL_GRID_FROM = 60;

/** While the virtual grid loads, the first cards as a plain grid: a screenful, not an empty box. */
const FIRST_CARDS = 12;

/** Loaded the first time a selection is that long (with the virtualizer): the idle page does not need it. */
const VirtualFileGrid = lazy(() => import('./VirtualFileGrid'));
