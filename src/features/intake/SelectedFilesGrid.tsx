import { lazy, memo, Suspense, useCallback, useRef } from 'react';
import { CountedSection } from '../../app/CountedSection.tsx';
import { useFocusAfterRemoval } from '../../app/useFocusAfterRemoval.ts';
import { useFocusKept } from '../../app/useFocusKept.ts';
import { formatMegabytes } from '../../lib/formatBytes.ts';
import { countOf } from '../../lib/plural.ts';
import { type FileState } from '../queue/convertPlan.ts';
import type { SelectedFile } from './useSelectedFiles.ts';
import { FileCard } from './FileCard.tsx';

interface SelectedFilesGridProps {
  files: readonly SelectedFile[];
  /** Each valid file's state with the current settings (converted, converting…), by id. */
  states: ReadonlyMap<string, FileState>;
  onRemove: (id: string) => void;
  onClear: () => void;
  onPreview: (file: File, opener: HTMLElement) => void;
  /** A card put in the page asks for its preview (useSelectedFiles); the function back says it has left. */
  onShown: (id: string) => () => void;
}

/** Memoised: the states map is kept while nothing changed, so a job starting or ending elsewhere re-renders no card. */
export const SelectedFilesGrid = memo(function SelectedFilesGrid({ files, states, onRemove, onClear, onPreview, onShown }: SelectedFilesGridProps) {
  const list = useRef<HTMLDivElement>(null);
  // Remove sends focus to the card that takes the removed one's place, or to the drop zone once none is left.
  const noteRemoval = useFocusAfterRemoval(
    files,
    (id) => list.current?.querySelector<HTMLElement>(`[data-id="${CSS.escape(id)}"] .file-card__remove`),
    () => document.querySelector<HTMLElement>('[data-testid="drop-zone"]'),
  );
  const remove = useCallback(
    (id: string) => {
      noteRemoval(id);
      onRemove(id);
    },
    [noteRemoval, onRemove],
  );
  // A long grid's first cards stand in until its code has loaded; a button focused in them keeps the focus on its card.
  const { onFocus, onBlur, restore } = useFocusKept(list, (grid, lost) => {
    const id = lost.closest<HTMLElement>('[data-id]')?.dataset.id;
    const kind = [...lost.classList].find((name) => name.startsWith('file-card__'));
    return id && kind ? grid.querySelector<HTMLElement>(`[data-id="${CSS.escape(id)}"] .${kind}`) : null;
  });

  if (files.length === 0) return null;
  const valid = files.filter((f) => f.isValid);
  const totalBytes = valid.reduce((sum, f) => sum + f.file.size, 0);
  const plainGrid = (shown: readonly SelectedFile[]) => (
    <ul className="file-grid">
      {shown.map((file) => (
        <FileCard key={file.id} file={file} state={states.get(file.id) ?? 'ready'} onRemove={remove} onPreview={onPreview} onShown={onShown} />
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
      {/* data-previews: how many previews are made (only for the cards in the page: a long grid has some). */}
      <p className="summary" data-testid="selection-summary" data-previews={files.filter((f) => f.thumbnailUrl !== null).length}>
        {countOf(valid.length, 'valid image')} • {formatMegabytes(totalBytes)}
        {files.length > valid.length ? ` • ${countOf(files.length - valid.length, 'file')} with errors` : ''}
      </p>
      <div ref={list} onFocus={onFocus} onBlur={onBlur}>
        {files.length < VIRTUAL_GRID_FROM ? (
          plainGrid(files)
        ) : (
          <Suspense fallback={plainGrid(files.slice(0, FIRST_CARDS))}>
            <VirtualFileGrid files={files} states={states} onRemove={remove} onPreview={onPreview} onShown={onShown} onRendered={restore} />
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
const VirtualFileGrid = lazy(() => import('./VirtualFileGrid.tsx'));
