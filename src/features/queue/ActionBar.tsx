import { useEffect, useRef } from 'react';
import { setToastBottom } from '../../app/notify';
import type { ConversionQueue } from './conversionQueue';
import { summarise } from './jobs';
import { useQueueJobs } from './useConversionQueue';

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
}

type RunCounts = ReturnType<typeof summarise>;

/** About how long the rest of a run takes, from the pace of the jobs settled so far; null before the first. */
function timeLeftSeconds({ running, completed, failed }: RunCounts, startedAt: number, now: number): number | null {
  const settled = completed + failed;
  if (settled === 0 || running === 0) return null;
  return Math.max(1, Math.round((((now - startedAt) / settled) * running) / 1000));
}

/** In 5-second steps under a minute, whole minutes above: a countdown that changes the line once a second is noise. */
function formatTimeLeft(seconds: number): string {
  return seconds < 60 ? `${Math.max(5, Math.round(seconds / 5) * 5)} s left` : `${Math.round(seconds / 60)} min left`;
}

/** The latest run in a line: how far it is and about how long is left, then how it ended. */
function runStatus({ running, completed, failed }: RunCounts, timeLeft: number | null): string {
  const settled = completed + failed;
  const total = settled + running;
  const failures = failed > 0 ? `, ${failed} failed` : '';
  if (running === 0) return `Finished: ${settled} of ${total} done${failures}`;
  return `Converting… ${settled} of ${total} done${failures}${timeLeft === null ? '' : ` · about ${formatTimeLeft(timeLeft)}`}`;
}

/**
 * Convert and the batch's progress, in a bar that stays at the bottom of the screen wherever the page is scrolled
 * (sticky, so at the end of the page it takes its own place and covers nothing). On a phone the settings, the
 * files and the queue are long; the action and the batch's state are always a thumb away.
 */
export function ActionBar({ queue, label, disabled, hint, onHint, onConvert }: ActionBarProps) {
  useQueueJobs(queue);
  const run = queue.latestRunJobs();
  const counts = summarise(run);
  const running = counts.running > 0;
  const startedAt = useRef(0);
  const statusRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!running) return;
    startedAt.current = performance.now();
    // Convert turns disabled as a run starts, which drops keyboard focus to the page: it goes to the batch's progress.
    const focused = document.activeElement;
    const lost = focused === null || focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled);
    if (lost) statusRef.current?.focus();
  }, [running]);
  const done = run.length === 0 ? 0 : (run.length - counts.running) / run.length;
  const bar = useRef<HTMLElement>(null);
  // Toasts on a phone sit just above the bar (AppToaster), so it publishes its height.
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
                {runStatus(counts, timeLeftSeconds(counts, startedAt.current, performance.now()))}
              </p>
              <div className="progress action-bar__progress" aria-hidden="true">
                <div className="progress__bar" style={{ transform: `scaleX(${done})` }} />
              </div>
            </>
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
        <button type="button" className="button button--primary button--large action-bar__convert" onClick={onConvert} disabled={disabled} aria-describedby={hint ? 'convert-hint' : undefined}>
          {label}
        </button>
      </div>
    </section>
  );
}
