import { useEffect } from 'react';
import { useFirstRowsByFrame } from '../../app/useRowsByFrame.ts';
import { useWindowList } from '../../app/useWindowList.ts';
import type { ConversionQueue } from '../../conversion/conversionQueue.ts';
import type { ConversionJob } from '../../conversion/jobs.ts';
import { JobCard } from './JobCard.tsx';

const ROW_GAP = 10;
const ROW_ESTIMATE = 110;

/**
 * A long queue as the rows near the screen only (useWindowList): Convert then makes a few dozen rows, not 200, and
 * those a few a frame as it first fills (useFirstRowsByFrame), as a short list's: the frame that laid out its 14
 * first rows at once was a phone's longest as its batch started.
 */
export default function VirtualJobList({ queue, jobs, onDownload, onCompare, onCancel, onRetry, onRendered, rowsPerFrame, firstRows }: {
  queue: ConversionQueue;
  jobs: readonly ConversionJob[];
  onDownload: (job: ConversionJob) => void;
  onCompare: (job: ConversionJob, opener: HTMLElement) => void;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  /** After each render: the rows it made may be where focus was (the list renders on its own as the page scrolls). */
  onRendered: () => void;
  /** New rows shown a frame, and rows shown from the start (the first rows that stood in while this list loaded). */
  rowsPerFrame: number;
  firstRows: number;
}) {
  const { list, virtualizer, listTop } = useWindowList<HTMLUListElement>({ count: jobs.length, estimate: ROW_ESTIMATE, gap: ROW_GAP, overscan: 6, keyOf: (index) => jobs[index]!.id });
  const items = virtualizer.getVirtualItems();
  const rows = useFirstRowsByFrame(items.length, rowsPerFrame, firstRows);
  useEffect(() => onRendered());
  return (
    <ul ref={list} className="job-list job-list--virtual" style={{ blockSize: virtualizer.getTotalSize() }}>
      {(rows < items.length ? items.slice(0, rows) : items).map((row) => (
        <JobCard
          key={row.key}
          queue={queue}
          id={jobs[row.index]!.id}
          onDownload={onDownload}
          onCompare={onCompare}
          onCancel={onCancel}
          onRetry={onRetry}
          place={{ index: row.index, top: row.start - listTop, measure: virtualizer.measureElement }}
        />
      ))}
    </ul>
  );
}
