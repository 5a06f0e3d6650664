import { memo, useCallback, useEffect, useRef } from 'react';
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

const FileCard = memo(function FileCard({ file, state, onRemove }: { file: SelectedFile; state: FileState; onRemove: (id: string) => void }) {
  return (
    <li className={`file-card${file.isValid ? '' : ' file-card--invalid'}`} data-testid="file-card">
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

export function SelectedFilesGrid({ files, states, onRemove, onClear }: SelectedFilesGridProps) {
  const list = useRef<HTMLUListElement>(null);
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
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('.file-card__remove') ?? [];
    const next = buttons[Math.min(pending.index, buttons.length - 1)] ?? document.querySelector<HTMLElement>('[data-testid="drop-zone"]');
    next?.focus();
  }, [files]);

  if (files.length === 0) return null;
  const valid = files.filter((f) => f.isValid);
  const totalBytes = valid.reduce((sum, f) => sum + f.file.size, 0);
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
      <p className="summary" data-testid="selection-summary">
        {countOf(valid.length, 'valid image')} • {formatMegabytes(totalBytes)}
        {files.length > valid.length ? ` • ${countOf(files.length - valid.length, 'file')} with errors` : ''}
      </p>
      <ul className="file-grid" ref={list}>
        {files.map((file) => (
          <FileCard key={file.id} file={file} state={states.get(file.id) ?? 'ready'} onRemove={remove} />
        ))}
      </ul>
    </CountedSection>
  );
}
