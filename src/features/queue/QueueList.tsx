import { memo } from 'react';
import { FORMAT_LABELS } from '../settings/settings';
import { formatBytes, percentSaved } from '../../lib/formatBytes';
import type { ConversionJob } from './jobs';

interface QueueListProps {
  jobs: readonly ConversionJob[];
  completed: number;
  zipping: boolean;
  onDownload: (job: ConversionJob) => void;
  onDownloadAll: () => void;
  onCancel: (id: string) => void;
  onRetry: (job: ConversionJob) => void;
  onClearFinished: () => void;
}

const STATUS_TEXT: Record<ConversionJob['status'], string> = {
  pending: 'Waiting…',
  processing: 'Converting…',
  completed: 'Done',
  error: 'Failed',
};

const JobCard = memo(function JobCard({ job, onDownload, onCancel, onRetry }: {
  job: ConversionJob;
  onDownload: (job: ConversionJob) => void;
  onCancel: (id: string) => void;
  onRetry: (job: ConversionJob) => void;
}) {
  const running = job.status === 'pending' || job.status === 'processing';
  const saved = job.outputSize !== null ? percentSaved(job.originalSize, job.outputSize) : null;
  return (
    <li className={`job job--${job.status}`} data-testid="job" data-status={job.status}>
      <div className="job__head">
        <p className="job__name" title={job.file.name}>
          {job.file.name}
        </p>
        <span className={`badge badge--${job.status}`}>{STATUS_TEXT[job.status]}</span>
      </div>
      {running ? (
        <div className="job__progress">
          <div
            className="progress"
            role="progressbar"
            aria-label={`Converting ${job.file.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={job.progress}
          >
            <div className="progress__bar" style={{ width: `${job.progress}%` }} />
          </div>
          <span className="job__percent">{job.progress}%</span>
          <button type="button" className="button button--ghost button--small" onClick={() => onCancel(job.id)} aria-label={`Cancel ${job.file.name}`}>
            Cancel
          </button>
        </div>
      ) : null}
      {job.status === 'completed' && job.outputBlob ? (
        <div className="job__result">
          <p className="job__sizes">
            <span>{formatBytes(job.originalSize)}</span> → <span data-testid="output-size">{formatBytes(job.outputSize ?? 0)}</span>
            {saved !== null ? <span className="job__saved"> ({saved}% saved)</span> : null}
          </p>
          <p className="job__format">Converted to {FORMAT_LABELS[job.outputFormat]}</p>
          <button type="button" className="button button--primary button--small" onClick={() => onDownload(job)} aria-label={`Download ${job.outputName}`}>
            Download
          </button>
        </div>
      ) : null}
      {job.status === 'error' ? (
        <div className="job__result">
          <p className="job__error" role="alert">
            {job.error}
          </p>
          <button type="button" className="button button--ghost button--small" onClick={() => onRetry(job)} aria-label={`Retry ${job.file.name}`}>
            Retry
          </button>
        </div>
      ) : null}
    </li>
  );
});

export function QueueList({ jobs, completed, zipping, onDownload, onDownloadAll, onCancel, onRetry, onClearFinished }: QueueListProps) {
  if (jobs.length === 0) return null;
  return (
    <section className="card" aria-labelledby="queue-title">
      <div className="section-head">
        <h2 id="queue-title">
          Conversion Queue <span className="count">({jobs.length})</span>
        </h2>
        <div className="section-head__actions">
          {completed > 0 ? (
            <button type="button" className="button button--primary" onClick={onDownloadAll} disabled={zipping}>
              {zipping ? 'Preparing zip…' : 'Download All (.zip)'}
            </button>
          ) : null}
          <button type="button" className="link-button" onClick={onClearFinished}>
            Clear finished
          </button>
        </div>
      </div>
      <ul className="job-list">
        {jobs.map((job) => (
          <JobCard key={job.id} job={job} onDownload={onDownload} onCancel={onCancel} onRetry={onRetry} />
        ))}
      </ul>
    </section>
  );
}
