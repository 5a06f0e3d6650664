import { lazy, memo, Suspense, useCallback, useEffect, useRef } from 'react';
import { CountedSection } from '../../app/CountedSection';
import { formatBytes, formatMegabytes } from '../../lib/formatBytes';
import { countOf } from '../../lib/plural';
import { FILE_STATE_TEXT, type FileState } from '../queue/convertPlan';
import type { SelectedFile } from './useSelectedFiles';

interface SelectedFilesGridProps {
  files: readonly SelectedFile[];
  /** Each valid file's state with the current settings (converted, converting…), by id. */
  states: ReadonlyMap<string, FileState>;
  onRemove: (id: string) => void;
  onClear: () => void;
}

/** Where a card of a long (virtual) grid sits, and how the grid measures it. */
export interface CardPlace {
  index: number;
  top: number;
  left: number;
  width: number;
  measure: (element: HTMLLIElement | null) => void;
}

export const FileCard = memo(function FileCard({ file, state, onRemove, place }: { file: SelectedFile; state: FileState; onRemove: (id: string) => void; place?: CardPlace }) {
  return (
    <li
      className={`file-card${file.isValid ? '' : ' file-card--invalid'}${place ? ' file-card--placed' : ''}`}
      data-testid="file-card"
      data-id={file.id}
      data-index={place?.index}
      ref={place?.measure}
      style={place ? { transform: `translate(${place.left}px, ${place.top}px)`, inlineSize: place.width } : undefined}
    >
      <div className="file-card__thumb">
        {file.thumbnailUrl ? (
          <img src={file.thumbnailUrl} alt="" decoding="async" loading="lazy" />
        ) : (
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 5h16v14H4zM4 15l4-4 4 4 3-3 5 5" />
          </svg>
        )}
        <span className="file-card__ext">{file.extension}</span>
      </div>
      <div className="file-card__body">
        <p className="file-card__name" title={file.file.name}>
          {file.file.name}
        </p>
        <p className="file-card__size">{formatBytes(file.file.size)}</p>
        <p
          className={`file-card__status${file.isValid ? ` file-card__status--${state}` : ' file-card__status--error'}`}
          role={file.isValid ? undefined : 'alert'}
        >
          {file.isValid ? FILE_STATE_TEXT[state] : file.validationMessage}
        </p>
      </div>
      <button type="button" className="icon-button file-card__remove" aria-label={`Remove ${file.file.name}`} onClick={() => onRemove(file.id)}>
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M6 6l12 12M18 6 6 18" />
        </svg>
      </button>
    </li>
  );
});

/** Memoised: the states map is kept while nothing changed, so a job starting or ending elsewhere re-renders no card. */
export const SelectedFilesGrid = memo(function SelectedFilesGrid({ files, states, onRemove, onClear }: SelectedFilesGridProps) {
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
        <FileCard key={file.id} file={file} state={states.get(file.id) ?? 'ready'} onRemove={remove} />
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
      <div ref={list}>
        {files.length < VIRTUAL_GRID_FROM ? (
          plainGrid(files)
        ) : (
          <Suspense fallback={plainGrid(files.slice(0, FIRST_CARDS))}>
            <VirtualFileGrid files={files} states={states} onRemove={remove} />
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
