import { useCallback, useEffect, useRef, useState } from 'react';
import { notify } from '../../app/notify.ts';
import { setToastBottom } from '../../app/toastBottom.ts';
import type { ConversionQueue } from '../../conversion/conversionQueue.ts';
import { downloadAllAsZip } from './download.ts';
import { runTimeLeftMs, summarise } from '../../conversion/jobs.ts';
import { saveAllToFolder, useCanSaveToFolder } from './saveToFolder.ts';
import { shareWithMessages, useCanShareFiles } from './share.ts';
import { ShareIcon } from './ShareIcon.tsx';
import { runStatus } from './runStatus.ts';
import { shortfallText } from './storageRoom.ts';
import { afterNextFrame } from '../../lib/frames.ts';
import { countOf } from '../../lib/plural.ts';
import { useJobsByStatus } from './useConversionQueue.ts';
import type { BatchEstimate } from './useBatchEstimate.ts';

interface ActionBarProps {
  queue: ConversionQueue;
  /** The button's text: "Convert 3 images", or "Converting..." during a run. */
  label: string;
  disabled: boolean;
  /** Why Convert cannot start, or what it needs; null when it can. */
  hint: string | null;
  /** When set, the hint is a button that takes the visitor to what is missing (the e-mail field). */
  onHint?: () => void;
  onConvert: () => void;
  /** What Convert would make of the batch, before it is pressed (useBatchEstimate); null until sampled. */
  estimate: BatchEstimate | null;
}

/** The time left moves in 5 s steps (runStatus.ts formatTimeLeft); working it out more often only costs the UI thread. */
const TIME_LEFT_REFRESH_MS = 2500;

/**
 * A button's long action (a zip, a folder): busy while it runs, so the button can say so and not start it twice; a
 * failure is logged and told in a toast. `action` should be stable (useCallback).
 */
function useBusyAction(action: () => Promise<void>, failure: { log: string; title: string; message: string }): [busy: boolean, run: () => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const { log, title, message } = failure;
  const run = useCallback(async () => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      console.error(log, error);
      notify.destructive(title, message);
    } finally {
      setBusy(false);
    }
  }, [action, log, title, message]);
  return [busy, run];
}

/** Hidden in place, not absent, until a job completes (see DownloadAllButton). */
const hiddenUntil = (completed: number) => (completed === 0 ? { visibility: 'hidden' as const } : undefined);

/**
 * Every completed output in one zip; "Preparing zip…" while the worker builds it. Shown from the start of a run but
 * hidden (unseen, unfocusable, out of the accessibility tree) until a job completes: inserting it then would change
 * the bar's size mid-batch, which re-lays out the page while the workers hold the cores.
 */
function DownloadAllButton({ queue, completed }: { queue: ConversionQueue; completed: number }) {
  const [zipping, downloadAll] = useBusyAction(
    useCallback(async () => queue.markDelivered(await downloadAllAsZip(queue.getJobs())), [queue]),
    { log: 'Building the zip failed', title: 'Download failed', message: 'The zip could not be built. Download the files one by one instead.' },
  );
  return (
    <button
      type="button"
      className="button button--primary button--large action-bar__download"
      onClick={downloadAll}
      disabled={zipping}
      style={hiddenUntil(completed)}
    >
      {zipping ? 'Preparing zip…' : 'Download All (.zip)'}
    </button>
  );
}

/** Every completed output to another app, where the browser can share files (phones). */
function ShareAllButton({ queue, completed }: { queue: ConversionQueue; completed: number }) {
  const share = useCallback(() => shareWithMessages(queue.getJobs()), [queue]);
  return (
    <button type="button" className="button button--ghost button--large action-bar__secondary action-bar__share" onClick={share} style={hiddenUntil(completed)}>
      <ShareIcon />
      <span className="action-bar__share-label">Share all</span>
    </button>
  );
}

/** Each output written into a folder the visitor picks, as it finishes, where the browser allows it (desktop Chromium). */
function SaveToFolderButton({ queue, completed }: { queue: ConversionQueue; completed: number }) {
  const [saving, save] = useBusyAction(
    useCallback(async () => {
      const result = await saveAllToFolder(queue);
      if (!result) return;
      if (result.failed > 0) notify.destructive('Some images were not saved', `${countOf(result.saved, 'image')} saved to ${result.folder}, ${result.failed} could not be written.`);
      else notify.info(`Saved ${countOf(result.saved, 'image')}`, `In the folder ${result.folder}.`);
    }, [queue]),
    { log: 'Saving to a folder failed', title: 'Saving failed', message: 'The folder could not be written. Use Download All (.zip) instead.' },
  );
  return (
    <button type="button" className="button button--ghost button--large action-bar__secondary" onClick={save} disabled={saving} style={hiddenUntil(completed)}>
      {saving ? 'Saving to folder…' : 'Save all to folder…'}
    </button>
  );
}

/**
 * Convert, the batch's progress and Download All, in a bar that stays at the bottom of the screen wherever the page is scrolled
 * (sticky, so at the end of the page it takes its own place and covers nothing). On a phone the settings, the
 * files and the queue are long; the action and the batch's state are always a thumb away.
 */
export function ActionBar({ queue, label, disabled, hint, onHint, onConvert, estimate }: ActionBarProps) {
  // Re-renders when a job changes status, not on progress; the time left is refreshed every few seconds.
  const jobs = useJobsByStatus(queue);
  const run = queue.latestRunJobs(jobs);
  const counts = summarise(run);
  const running = counts.running > 0;
  const completed = jobs.filter((job) => job.status === 'completed').length;
  const canShare = useCanShareFiles();
  const canSaveToFolder = useCanSaveToFolder();
  const startedAt = useRef(0);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const [, refresh] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => refresh((n) => n + 1), TIME_LEFT_REFRESH_MS);
    return () => clearInterval(timer);
  }, [running]);
  useEffect(() => {
    if (!running) return;
    startedAt.current = performance.now();
    // Convert turns disabled as a run starts, which drops keyboard focus to the page: it goes to the batch's progress.
    // Once the frame that shows the run has rendered: focus() lays out a page with changes pending first, and doing
    // that here made the commit's task that much longer.
    return afterNextFrame(() => {
      const focused = document.activeElement;
      const lost = focused === null || focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled);
      // preventScroll: the bar is always on screen, and scrolling it into view forced a layout of the page.
      if (lost) statusRef.current?.focus({ preventScroll: true });
    });
  }, [running]);
  const done = run.length === 0 ? 0 : (run.length - counts.running) / run.length;
  const bar = useRef<HTMLElement>(null);
  // Toasts on a phone sit just above the bar (toaster.tsx), so it publishes its height.
  useEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setToastBottom(element.offsetHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <section className="action-bar" aria-label="Convert" ref={bar}>
      <div className="action-bar__inner">
        <div className="action-bar__state">
          {run.length > 0 ? (
            <>
              <p className="action-bar__status" role="status" tabIndex={-1} ref={statusRef}>
                {runStatus(counts, runTimeLeftMs(run, startedAt.current, performance.now()), performance.now() - startedAt.current)}
              </p>
              <div className="progress action-bar__progress" aria-hidden="true">
                <div className="progress__bar" style={{ transform: `scaleX(${done})` }} />
              </div>
            </>
          ) : null}
          {estimate && !running ? (
            <p className="action-bar__estimate" data-testid="batch-estimate" data-bytes={Math.round(estimate.bytes)}>
              {estimate.text}
            </p>
          ) : null}
          {estimate?.storage && !running ? (
            <p className="action-bar__storage" data-testid="storage-shortfall" data-need-bytes={Math.round(estimate.storage.needBytes)}>
              {shortfallText(estimate.storage)}
            </p>
          ) : null}
          {hint ? (
            <p className="convert__hint" id="convert-hint">
              {onHint ? (
                <button type="button" className="link-button" onClick={onHint}>
                  {hint}
                </button>
              ) : (
                hint
              )}
            </p>
          ) : null}
        </div>
        <div className="action-bar__buttons">
          {jobs.length > 0 ? (
            <>
              {canShare ? <ShareAllButton queue={queue} completed={completed} /> : null}
              {canSaveToFolder ? <SaveToFolderButton queue={queue} completed={completed} /> : null}
              <DownloadAllButton queue={queue} completed={completed} />
            </>
          ) : null}
          <button type="button" className="button button--primary button--large action-bar__convert" onClick={onConvert} disabled={disabled} aria-describedby={hint ? 'convert-hint' : undefined}>
            {label}
          </button>
        </div>
      </div>
    </section>
  );
}
