import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { CONVERSION_ERRORS } from '../../../core/messages';
import { convertInWorker } from '../../conversion/bridge';
import { notify } from '../../app/notify';
import { countOf } from '../../lib/plural';
import { reportConversionFinished } from '../integrations/report';
import { ConversionQueue, type RunSummary } from '../../conversion/conversionQueue';
import type { ScreenAwake } from '../../conversion/screenAwake';
import type { ConversionJob } from '../../conversion/jobs';

function announceRun({ succeeded, failed }: RunSummary): void {
  if (succeeded === 0) notify.destructive(CONVERSION_ERRORS.generic, `${countOf(failed, 'image')} could not be converted.`);
  else notify.info('Conversion complete', `${countOf(succeeded, 'image')} converted${failed > 0 ? `, ${failed} failed` : ''}.`);
}

function onRunFinished(summary: RunSummary): void {
  announceRun(summary);
  reportConversionFinished(summary);
}

/** One queue for the page's life; the page itself never re-renders for it (the parts that show it subscribe). */
export function useConversionQueue() {
  const [queue] = useState(() => new ConversionQueue({ convert: convertInWorker, onRunFinished }));
  useEffect(() => () => queue.dispose(), [queue]);
  useWhileConverting(queue);
  return { queue };
}

/**
 * While a job is pending or running: the screen stays on (ScreenAwake, loaded with the first run: the idle page does
 * not need it), and leaving the page asks first, since the batch's results live in the tab and a reload or a closed
 * tab loses them.
 */
function useWhileConverting(queue: ConversionQueue): void {
  const converting = useIsConverting(queue);
  const awake = useRef<Promise<ScreenAwake> | null>(null);
  useEffect(() => {
    if (converting) {
      awake.current ??= import('../../conversion/screenAwake').then(({ ScreenAwake }) => {
        const screen = new ScreenAwake();
        document.addEventListener('visibilitychange', screen.onVisibilityChange);
        return screen;
      });
    }
    // In order: each change waits for the same module, so a quick run's "off" never overtakes its "on".
    void awake.current?.then((screen) => screen.set(converting));
    if (!converting) return;
    const askBeforeLeaving = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', askBeforeLeaving);
    return () => window.removeEventListener('beforeunload', askBeforeLeaving);
  }, [converting]);
  useEffect(
    () => () =>
      void awake.current?.then((screen) => {
        screen.set(false);
        document.removeEventListener('visibilitychange', screen.onVisibilityChange);
      }),
    [],
  );
}

/** The jobs, re-rendering when one is added, removed or changes status, not on progress. */
export function useJobsByStatus(queue: ConversionQueue) {
  return useSyncExternalStore(queue.subscribe, queue.getJobsByStatus, queue.getJobsByStatus);
}

/** What became of each file, per settings; the same object until a job changes state. */
export function useOutcomes(queue: ConversionQueue) {
  return useSyncExternalStore(queue.subscribe, queue.getOutcomes, queue.getOutcomes);
}

/** Whether a job is pending or running. */
export function useIsConverting(queue: ConversionQueue) {
  return useSyncExternalStore(queue.subscribe, queue.isConverting, queue.isConverting);
}

/** Whether a job changed in a way its row shows other than its progress (state, stage, result). */
function sameShape(a: ConversionJob, b: ConversionJob): boolean {
  return a.status === b.status && a.stage === b.stage && a.error === b.error && a.outputBlob === b.outputBlob && a.outputFormat === b.outputFormat;
}

/**
 * One job, re-rendering its row when it changes state or stage, not when its progress moves: progress is written
 * straight to the row's bar (useJobProgress). A uSES update is a synchronous render and commit, and those, one per
 * row per progress step, were most of the batch's frame-long tasks on a throttled phone.
 */
export function useJob(queue: ConversionQueue, id: string) {
  const shown = useRef<ConversionJob | undefined>(undefined);
  const get = useCallback(() => {
    const job = queue.getJob(id);
    if (!job || !shown.current || !sameShape(job, shown.current)) shown.current = job;
    return shown.current;
  }, [queue, id]);
  return useSyncExternalStore(queue.subscribe, get, get);
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
