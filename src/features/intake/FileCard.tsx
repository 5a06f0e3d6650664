import { memo, useEffect } from 'react';
import { formatBytes } from '../../lib/formatBytes.ts';
import { FILE_STATE_TEXT, type FileState } from '../queue/convertPlan.ts';
import type { SelectedFile } from './useSelectedFiles.ts';

/** Where a card of a long (virtual) grid sits, and how the grid measures it. */
export interface CardPlace {
  index: number;
  top: number;
  left: number;
  width: number;
  measure: (element: HTMLLIElement | null) => void;
}

export const FileCard = memo(function FileCard({ file, state, onRemove, onPreview, onShown, place }: {
  file: SelectedFile;
  state: FileState;
  onRemove: (id: string) => void;
  /** Shows what the current settings make of this file (the compare view); the button gets the focus back. */
  onPreview: (file: File, opener: HTMLElement) => void;
  /** Asks for the card's preview while it is in the page (useSelectedFiles): only cards on screen or near it get one. */
  onShown: (id: string) => () => void;
  place?: CardPlace;
}) {
  const wantsPreview = file.isValid && file.thumbnailUrl === null;
  useEffect(() => (wantsPreview ? onShown(file.id) : undefined), [wantsPreview, file.id, onShown]);
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
        {file.isValid ? (
          <button type="button" className="file-card__preview" aria-label={`Preview ${file.file.name} with these settings`} onClick={(event) => onPreview(file.file, event.currentTarget)}>
            Preview
          </button>
        ) : null}
      </div>
      <div className={`file-card__body${file.folder ? ' file-card__body--in-folder' : ''}${file.note || !file.isValid ? ' file-card__body--wraps' : ''}`}>
        <p className="file-card__name" title={file.file.name}>
          {file.file.name}
        </p>
        {file.folder ? <p className="file-card__folder" title={`In the folder ${file.folder}`}>in {file.folder}</p> : null}
        <p className="file-card__size">{formatBytes(file.file.size)}</p>
        {file.note ? <p className="file-card__note">{file.note}</p> : null}
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
