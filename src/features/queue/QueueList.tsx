import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CountedSection } from '../../app/CountedSection.tsx';
import { useFocusAfterRemoval } from '../../app/useFocusAfterRemoval.ts';
import { useFocusKept } from '../../app/useFocusKept.ts';
import { useOnAFrameLater, useRowsByFrame } from '../../app/useRowsByFrame.ts';
import type { ConversionQueue } from '../../conversion/conversionQueue.ts';
import { downloadJobOutput } from './download.ts';
import { type ConversionJob } from '../../conversion/jobs.ts';
import { useDeliveredCount, useJobsByStatus } from './useConversionQueue.ts';
import { JobCard, rowAction } from './JobCard.tsx';
import { loadedVirtualJobList, loadVirtualJobList } from './loadVirtualJobList.ts';

interface QueueListProps {
  queue: ConversionQueue;
  onRetry: (id: string) => void;
  onCompare: (job: ConversionJob, opener: HTMLElement) => void;
}

/**
 * The list re-renders when jobs come, go or change status; a row re-renders when its own job changes state or stage,
 * and a progress step renders nothing (JobProgress writes the bar itself).
 */
export const QueueList = memo(function QueueList({ queue, onRetry, onCompare }: QueueListProps) {
  // Rows come and go in a transition (useQueueValue), a render React can interrupt: a tap goes first.
  const allJobs = useJobsByStatus(queue);
  // In a batch of hundreds, what failed and why is found with "Show failed": the list shows only those, until none is
  // left (each retried, removed or cleared).
  const failed = useMemo(() => allJobs.filter((job) => job.status === 'error'), [allJobs]);
  const [onlyFailed, setOnlyFailed] = useState(false);
  // With none failed the filter is off: failures of a later run do not come up filtered.
  if (onlyFailed && failed.length === 0) setOnlyFailed(false);
  const showingFailed = onlyFailed && failed.length > 0;
  const jobs = showingFailed ? failed : allJobs;
  // The queue comes a frame after a batch starts: the frame of the tap on Convert shows the batch's progress in the
  // action bar and the files' new states; laid out with the queue as well, it was a long task on a 4× slower phone.
  const shown = useOnAFrameLater(jobs.length > 0);
  const long = jobs.length >= VIRTUAL_FROM;
  const VirtualList = useVirtualJobList(shown && long);
  const virtual = long && VirtualList !== null && VirtualList !== 'unavailable';
  // Its rows come from when it shows: a short list's all, a long one's first while its list loads (all of them if
  // the list cannot be had). The long list brings its own rows, a few a frame from as many as stood in for it.
  const rows = useRowsByFrame(shown && !virtual ? (long && VirtualList === null ? Math.min(FIRST_ROWS, jobs.length) : jobs.length) : 0, ROWS_PER_FRAME);
  const stoodIn = useRef(0);
  useEffect(() => {
    stoodIn.current = virtual ? 0 : rows;
  });
  const filling = jobs.length < VIRTUAL_FROM && rows < jobs.length;
  // Cancel sends focus to the row that takes the cancelled one's place (once the rows have come), or to Convert once
  // none is left.
  const noteRemoval = useFocusAfterRemoval(
    jobs,
    (id) => {
      const row = document.querySelector<HTMLElement>(`[data-testid="job"][data-id="${CSS.escape(id)}"]`);
      return row && rowAction(row);
    },
    () => document.querySelector<HTMLElement>('.action-bar__convert'),
    filling,
  );
  // A result downloaded is one the visitor has: it may be let go ("Clear downloaded") while the rest converts.
  const download = useCallback(
    (job: ConversionJob) => {
      downloadJobOutput(job);
      queue.markDelivered([job.id]);
    },
    [queue],
  );
  const delivered = useDeliveredCount(queue);
  const cancel = useCallback(
    (id: string) => {
      noteRemoval(id);
      queue.cancel(id);
    },
    [noteRemoval, queue],
  );
  // The rows are made anew when the list turns long (its own code, and its first rows standing in while that loads) or
  // short again: a button focused in a row keeps the focus on the same button of the same row.
  const list = useRef<HTMLDivElement | null>(null);
  const { onFocus, onBlur, restore } = useFocusKept(list, sameButtonInItsRow);

  if (!shown) return null;
  // Said from the batch's start where the device keeps it, not from the first result kept: appearing then, above a
  // phone's screen, it moved the page by its height mid-run (a layout of the whole page, the scroll anchored again,
  // a scroll event). Results already kept (a restored batch, a device that filled up since) keep it said.
  const keptHere = queue.keepsOnDevice() || jobs.some((job) => job.keptAt);
  const plainList = (shown: readonly ConversionJob[]) => (
    <ul className="job-list">
      {shown.map((job) => (
        <JobCard key={job.id} queue={queue} id={job.id} onDownload={download} onCompare={onCompare} onCancel={cancel} onRetry={onRetry} />
      ))}
    </ul>
  );
  return (
    <CountedSection
      title="Conversion Queue"
      count={allJobs.length}
      actions={
        <>
          {failed.length > 0 ? (
            <>
              <button type="button" className="link-button" aria-pressed={showingFailed} onClick={() => setOnlyFailed(!showingFailed)}>
                Show failed ({failed.length})
              </button>
              <button type="button" className="link-button" onClick={() => failed.forEach((job) => onRetry(job.id))}>
                Retry failed
              </button>
            </>
          ) : null}
          {delivered > 0 ? (
            <button type="button" className="link-button" onClick={() => queue.clearDelivered()}>
              Clear downloaded ({delivered})
            </button>
          ) : null}
          <button type="button" className="link-button" onClick={() => queue.clearFinished()}>
            Clear finished
          </button>
        </>
      }
    >
      {keptHere && <p className="queue-note">Results wait on this device until you download or clear them — nothing is uploaded.</p>}
      <div ref={list} onFocus={onFocus} onBlur={onBlur}>
        {virtual ? (
          // Read as it mounts: the rows the last frame showed in its place.
          <VirtualList queue={queue} jobs={jobs} onDownload={download} onCompare={onCompare} onCancel={cancel} onRetry={onRetry} onRendered={restore} rowsPerFrame={ROWS_PER_FRAME} firstRows={stoodIn.current} />
        ) : (
          plainList(rows === jobs.length ? jobs : jobs.slice(0, rows))
        )}
      </div>
    </CountedSection>
  );
});

/** In `list`, the button of `lost`'s row (the row with its job's id) that does what `lost` did, by its name. */
function sameButtonInItsRow(list: HTMLElement, lost: HTMLElement): HTMLElement | null {
  const id = lost.closest<HTMLElement>('[data-id]')?.dataset.id;
  const row = id ? list.querySelector<HTMLElement>(`[data-testid="job"][data-id="${CSS.escape(id)}"]`) : null;
  if (!row) return null;
  const name = lost.getAttribute('aria-label') ?? lost.textContent;
  return [...row.querySelectorAll<HTMLElement>('button')].find((button) => (button.getAttribute('aria-label') ?? button.textContent) === name) ?? rowAction(row);
}

/** From this many jobs the list keeps only the rows near the screen in the page. */
export const VIRTUAL_FROM = 40;

/**
 * A short list's new rows come this many a frame (useRowsByFrame): on a 4× slower phone, eight new rows in one frame
 * made it a 50–60 ms task; on a slower host (2026-11-28) a frame of three rows took 45–89 ms of CPU and one of one, 16.
 */
const ROWS_PER_FRAME = 2;

/** While the long list's code loads (it is fetched ahead of a long batch: ConverterPage), the first rows as a plain list. */
const FIRST_ROWS = 8;

/**
 * The long list (with the virtualizer), fetched the first time a queue is that long if not ahead of it: the idle page
 * does not need it. Null while it loads; 'unavailable' if it could not be fetched (the plain list shows every row).
 */
function useVirtualJobList(needed: boolean) {
  const [, setFetched] = useState(false);
  const [unavailable, setUnavailable] = useState(false);
  const list = loadedVirtualJobList();
  useEffect(() => {
    if (!needed || list || unavailable) return;
    let live = true;
    loadVirtualJobList().then(
      () => {
        if (live) setFetched(true);
      },
      () => {
        if (live) setUnavailable(true);
      },
    );
    return () => {
      live = false;
    };
  }, [needed, list, unavailable]);
  return unavailable ? ('unavailable' as const) : list;
}

