import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { CONVERSION_ERRORS } from '../../../core/messages.ts';
import { convertInWorker, judgeInWorker, keepInWorker } from '../../conversion/bridge.ts';
import { notify } from '../../app/notify.ts';
import { whenIdle } from '../../lib/frames.ts';
import { countOf } from '../../lib/plural.ts';
import { reportConversionFinished } from '../integrations/report.ts';
import type { ConversionQueue, RunSummary } from '../../conversion/conversionQueue.ts';
import { ConversionEngine } from '../../conversion/engine.ts';
import type { Restored } from '../../conversion/deviceBatch.ts';
import type { ConversionSettings } from '../settings/settings.ts';
import type { ConversionJob } from '../../conversion/jobs.ts';

function announceRun({ succeeded, failed }: RunSummary): void {
  if (succeeded === 0) notify.destructive(CONVERSION_ERRORS.generic, `${countOf(failed, 'image')} could not be converted.`);
  else notify.info('Conversion complete', `${countOf(succeeded, 'image')} converted${failed > 0 ? `, ${failed} failed` : ''}.`);
}

function onRunFinished(summary: RunSummary): void {
  announceRun(summary);
  reportConversionFinished(summary);
}

/** A full device: said once a run, when it happens; the run goes on with its outputs in memory. */
function onStorageFull(): void {
  notify.destructive("This device's storage is full", 'The rest of this batch is kept in memory until you download it. Nothing is lost.');
}

function announceRestored({ completed, resumed, failed, lost }: Restored): void {
  const parts = [
    completed > 0 ? `${countOf(completed, 'converted image')} kept on this device` : null,
    resumed > 0 ? `${countOf(resumed, 'image')} converting again` : null,
    failed > 0 ? `${failed} failed` : null,
    lost > 0 ? `${countOf(lost, 'image')} not kept: add ${lost === 1 ? 'it' : 'them'} again` : null,
  ].filter((part) => part !== null);
  if (parts.length === 0) return;
  notify.info('Your last batch is back', `${parts.join(', ')}.`);
}

/**
 * The conversion engine for the page's life (conversion/engine.ts: the queue, the batch kept on the device, the screen
 * kept on); the page itself never re-renders for it (the parts that show it subscribe to its queue). What a page
 * before this one left comes back once the page is idle, the settings too (`onSettingsRestored`).
 */
export function useConversionQueue({ onSettingsRestored }: { onSettingsRestored: (settings: ConversionSettings) => void }) {
  const restoreSettings = useRef(onSettingsRestored);
  restoreSettings.current = onSettingsRestored;
  const [engine] = useState(
    () =>
      new ConversionEngine(
        { convert: convertInWorker, judge: judgeInWorker, keepSource: keepInWorker, whenIdle: (callback) => whenIdle(callback, { timeoutMs: 2000 }), page: typeof window === 'undefined' ? undefined : window },
        {
          onRunFinished,
          onStorageFull,
          onRestored: (restored) => {
            if (restored.settings) restoreSettings.current(restored.settings);
            announceRestored(restored);
          },
          // Where this page keeps its batch, for whoever looks (the tests wait on it).
          onBatchKept: (place) => {
            document.documentElement.dataset.batch = place;
          },
        },
      ),
  );
  useEffect(() => engine.start(), [engine]);
  return { queue: engine.queue };
}

/**
 * What `read` gives of the queue, re-rendering as it changes, in a transition: React renders that in slices it pauses
 * between (a tap goes first) rather than at once. A status change re-renders the rows, the file cards and the action
 * bar; as one synchronous render and commit (useSyncExternalStore's) it was one of a phone batch's long tasks at 4× CPU
 * (docs/decisions/ui-thread-during-a-batch.md). Every part that reads the queue updates in the same transition, so
 * none shows a job in a state the others have not reached.
 */
function useQueueValue<T>(queue: ConversionQueue, read: () => T): T {
  const [value, setValue] = useState(read);
  const shown = useRef(value);
  shown.current = value;
  useEffect(() => {
    const update = () => {
      const next = read();
      if (!Object.is(next, shown.current)) startTransition(() => setValue(() => next));
    };
    // A change between this render and the subscription.
    update();
    return queue.subscribe(update);
  }, [queue, read]);
  return value;
}

/** The jobs, re-rendering when one is added, removed or changes status, not on progress. */
export function useJobsByStatus(queue: ConversionQueue) {
  return useQueueValue(queue, queue.getJobsByStatus);
}

/** What became of each file, per settings; the same object until a job changes state. */
export function useOutcomes(queue: ConversionQueue) {
  return useQueueValue(queue, queue.getOutcomes);
}

/** How many listed jobs have their outputs taken away (downloaded, zipped, saved to a folder). */
export function useDeliveredCount(queue: ConversionQueue) {
  return useQueueValue(queue, queue.deliveredCount);
}

/** Whether a job is pending or running. */
export function useIsConverting(queue: ConversionQueue) {
  return useQueueValue(queue, queue.isConverting);
}

/** Whether a job changed in a way its row shows other than its progress (state, stage, result, look). */
function sameShape(a: ConversionJob, b: ConversionJob): boolean {
  return a.status === b.status && a.stage === b.stage && a.error === b.error && a.outputBlob === b.outputBlob && a.outputFormat === b.outputFormat && a.look === b.look && a.lookPending === b.lookPending;
}

/**
 * One job, re-rendering its row when it changes state or stage, not when its progress moves: progress is written
 * straight to the row's bar (useJobProgress). A render and commit per row per progress step were most of the batch's
 * frame-long tasks on a throttled phone.
 */
export function useJob(queue: ConversionQueue, id: string) {
  const shown = useRef<ConversionJob | undefined>(undefined);
  const get = useCallback(() => {
    const job = queue.getJob(id);
    if (!job || !shown.current || !sameShape(job, shown.current)) shown.current = job;
    return shown.current;
  }, [queue, id]);
  return useQueueValue(queue, get);
}

/**
 * Keeps a running job's bar, percent and progressbar value up to date by writing them directly (a transform, a
 * text, an attribute), outside React's render and commit. Call with the elements' refs.
 */
export function useJobProgress(queue: ConversionQueue, id: string, parts: { bar: RefObject<HTMLElement | null>; percent: RefObject<HTMLElement | null>; meter: RefObject<HTMLElement | null> }) {
  const { bar, percent, meter } = parts;
  useLayoutEffect(() => {
    let shown = -1;
    const write = () => {
      const progress = queue.getJob(id)?.progress;
      if (progress === undefined || progress === shown) return;
      shown = progress;
      if (bar.current) bar.current.style.transform = `scaleX(${progress / 100})`;
      if (percent.current) percent.current.textContent = `${progress}%`;
      meter.current?.setAttribute('aria-valuenow', String(progress));
    };
    write();
    return queue.subscribe(write);
  }, [queue, id, bar, percent, meter]);
}
