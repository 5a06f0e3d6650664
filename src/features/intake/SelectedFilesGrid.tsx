import { memo } from 'react';
import { CountedSection } from '../../app/CountedSection';
import { formatBytes, formatMegabytes } from '../../lib/formatBytes';
import { countOf } from '../../lib/plural';
import type { SelectedFile } from './useSelectedFiles';

interface SelectedFilesGridProps {
  files: readonly SelectedFile[];
  onRemove: (id: string) => void;
  onClear: () => void;
}

const FileCard = memo(function FileCard({ file, onRemove }: { file: SelectedFile; onRemove: (id: string) => void }) {
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
        <p className={`file-card__status${file.isValid ? '' : ' file-card__status--error'}`} role={file.isValid ? undefined : 'alert'}>
          {file.isValid ? 'Ready to convert' : file.validationMessage}
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

export function SelectedFilesGrid({ files, onRemove, onClear }: SelectedFilesGridProps) {
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
      <ul className="file-grid">
        {files.map((file) => (
          <FileCard key={file.id} file={file} onRemove={onRemove} />
        ))}
      </ul>
    </CountedSection>
  );
}
