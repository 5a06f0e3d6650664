import { memo, useCallback, useRef } from 'react';
import { useFocusKept } from '../../app/useFocusKept.ts';
import type { OutputLook } from '../../../core/contract.ts';
import { FORMATS, SOURCE_FORMATS } from '../../../core/formats.ts';
import { growthText } from '../../../core/growth.ts';
import { LOOK_PENDING_TEXT, LOOK_VERDICT_TEXT, lookDetail, lookVerdict } from '../../../core/look.ts';
import { formatBytes, percentLarger, percentSaved } from '../../lib/formatBytes.ts';
import type { ConversionQueue } from '../../conversion/conversionQueue.ts';
import { stageLabel, type ConversionJob } from '../../conversion/jobs.ts';
import { shareWithMessages, useCanShareFiles } from './share.ts';
import { ShareIcon } from './ShareIcon.tsx';
import { useJob, useJobProgress } from './useConversionQueue.ts';

const STATUS_TEXT: Record<ConversionJob['status'], string> = {
  pending: 'Waiting…',
  processing: 'Converting…',
  completed: 'Done',
  error: 'Failed',
};

/** A row's main action, where focus goes in it: Download when done, Retry when failed, else its first button (Cancel). */
export const rowAction = (row: HTMLElement) => row.querySelector<HTMLElement>('.button--primary') ?? row.querySelector<HTMLElement>('button');

/** Where a row of a long (virtual) list sits, and how the list measures it. */
export interface VirtualPlace {
  index: number;
  top: number;
  measure: (element: HTMLLIElement | null) => void;
}

/** A running job's bar, percent and Cancel; the bar and percent move without a render (useJobProgress). */
function JobProgress({ queue, id, name, onCancel }: { queue: ConversionQueue; id: string; name: string; onCancel: (id: string) => void }) {
  const meter = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  const percent = useRef<HTMLSpanElement>(null);
  useJobProgress(queue, id, { bar, percent, meter });
  return (
    <div className="job__progress">
      <div className="progress" role="progressbar" aria-label={`Converting ${name}`} aria-valuemin={0} aria-valuemax={100} ref={meter}>
        <div className="progress__bar" ref={bar} />
      </div>
      <span className="job__percent" ref={percent} />
      <button type="button" className="button button--ghost button--small" onClick={() => onCancel(id)} aria-label={`Cancel ${name}`}>
        Cancel
      </button>
    </div>
  );
}

export const JobCard = memo(function JobCard({ queue, id, onDownload, onCompare, onCancel, onRetry, place }: {
  queue: ConversionQueue;
  id: string;
  onDownload: (job: ConversionJob) => void;
  /** Opens the compare view of a finished job; the button that opened it gets the focus back. */
  onCompare: (job: ConversionJob, opener: HTMLElement) => void;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  place?: VirtualPlace;
}) {
  const job = useJob(queue, id);
  const row = useRef<HTMLLIElement | null>(null);
  const measure = place?.measure;
  const rowRef = useCallback(
    (element: HTMLLIElement | null) => {
      row.current = element;
      measure?.(element);
    },
    [measure],
  );
  // A focused Cancel goes as the job ends: focus goes on to the row's Download (or Retry) once it shows.
  const { onFocus, onBlur } = useFocusKept(row, rowAction);
  // A job just done shows its state and its result (sizes, format, Download, Share) in one render of the queue's
  // transition (useQueueValue), which React renders in slices.
  const result = job?.status === 'completed' && job.outputBlob ? job : null;
  if (!job) return null;
  const running = job.status === 'pending' || job.status === 'processing';
  return (
    <li
      className={`job job--${job.status}${place ? ' job--placed' : ''}`}
      data-testid="job"
      data-id={job.id}
      data-status={job.status}
      data-encodes={job.encodes ?? undefined}
      data-route={job.route ?? undefined}
      data-index={place?.index}
      ref={rowRef}
      style={place ? { transform: `translateY(${place.top}px)` } : undefined}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <div className="job__head">
        <p className="job__name" title={job.file.name}>
          {/* A folder's files may share names: where each sat tells them apart, as the zip's tree will. */}
          {job.folder ? <span className="job__folder">{job.folder}/</span> : null}
          {job.file.name}
        </p>
        <span className="job__head-end">
          {/* Where the original is at hand (a job a later page restored without its source has none). */}
          {result && result.file.size > 0 ? (
            <button type="button" className="link-button job__compare" onClick={(event) => onCompare(result, event.currentTarget)} aria-label={`Compare ${result.outputName}`}>
              Compare
            </button>
          ) : null}
          <span className={`badge badge--${job.status}`}>{(job.status === 'processing' && stageLabel(job.stage)) || STATUS_TEXT[job.status]}</span>
        </span>
      </div>
      <div className={result?.grewBecause ? 'job__body job__body--grew' : 'job__body'}>
        {running ? (
          <JobProgress queue={queue} id={job.id} name={job.file.name} onCancel={onCancel} />
        ) : null}
        {job.status === 'completed' && result ? <JobResult job={result} onDownload={onDownload} /> : null}
        {job.status === 'error' ? (
          <div className="job__result">
            <p className="job__error" role="alert">
              {job.error}
            </p>
            <button type="button" className="button button--ghost button--small" onClick={() => onRetry(job.id)} aria-label={`Retry ${job.file.name}`}>
              Retry
            </button>
          </div>
        ) : null}
      </div>
    </li>
  );
});

/**
 * How the output looks beside its source: the verdict, its number on hover (and, beside the line, to a screen
 * reader). In the format's line, so the card keeps its height (on the narrowest phones, a line of its own).
 */
function LookVerdict({ look }: { look: OutputLook }) {
  const verdict = lookVerdict(look.score);
  return (
    <span className={`job__look job__look--${verdict}`} data-testid="look" data-score={look.score.toFixed(2)} data-smart-quality={look.smartQuality ?? undefined} title={lookDetail(look)}>
      <span className="job__separator"> · </span>
      {LOOK_VERDICT_TEXT[verdict]}
    </span>
  );
}

/** Where the verdict will be once the batch is done and the output has been judged (ConversionQueue). */
function LookPending() {
  return (
    <span className="job__look job__look--pending" data-testid="look-pending" title="How it looks is checked once the batch is done">
      <span className="job__separator"> · </span>
      {LOOK_PENDING_TEXT}
    </span>
  );
}

/** A completed job's sizes, format and dimensions, with Download and Share. */
function JobResult({ job, onDownload }: { job: ConversionJob; onDownload: (job: ConversionJob) => void }) {
  const canShare = useCanShareFiles();
  const saved = job.outputSize !== null ? percentSaved(job.originalSize, job.outputSize) : null;
  const larger = job.outputSize !== null ? percentLarger(job.originalSize, job.outputSize) : null;
  return (
    <div className="job__result">
      <p className="job__sizes">
        <span>{formatBytes(job.originalSize)}</span> → <span data-testid="output-size">{formatBytes(job.outputSize ?? 0)}</span>
        {saved !== null ? <span className="job__saved"> ({saved}% saved)</span> : null}
        {larger !== null ? <span className="job__larger"> (+{larger}% larger)</span> : null}
        {job.keptOriginal ? <span className="job__kept"> ({keptOriginalText(job.originalSize, job.keptOriginal.convertedBytes)})</span> : null}
      </p>
      {larger !== null && job.grewBecause ? (
        <p className="job__why" data-testid="grew-because">
          Larger because {growthText(job.grewBecause, (format) => SOURCE_FORMATS[format].label)}.
        </p>
      ) : null}
      <p className="job__format">
        Converted to {FORMATS[job.outputFormat].label}
        {job.outputDimensions ? <span className="job__dimensions" data-testid="output-dimensions"><span className="job__separator"> · </span>{job.outputDimensions.width} × {job.outputDimensions.height}</span> : null}
        {job.look ? <LookVerdict look={job.look} /> : job.lookPending ? <LookPending /> : null}
      </p>
      {/* The number for a screen reader, outside the line: a hidden span inside it still measures as its text. */}
      {job.look ? <span className="visually-hidden">{lookDetail(job.look)}</span> : null}
      <div className="job__actions">
        <button type="button" className="button button--primary button--small" onClick={() => onDownload(job)} aria-label={`Download ${job.outputName}`}>
          Download
        </button>
        {canShare ? (
          <button type="button" className="button button--ghost button--small button--square" onClick={() => void shareWithMessages([job])} aria-label={`Share ${job.outputName}`} title="Share">
            <ShareIcon />
          </button>
        ) : null}
      </div>
    </div>
  );
}

function keptOriginalText(originalBytes: number, convertedBytes: number): string {
  const larger = percentLarger(originalBytes, convertedBytes);
  return larger === null ? 'original kept: converting saved nothing' : `original kept: converted it was +${larger}% larger`;
}
