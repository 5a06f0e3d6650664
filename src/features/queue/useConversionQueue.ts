import { useEffect, useState, useSyncExternalStore } from 'react';
import { CONVERSION_ERRORS } from '../../../workers/contract';
import { convertInWorker } from '../../../workers/bridge';
import { notify } from '../../app/notify';
import { countOf } from '../../lib/plural';
import { reportConversionFinished } from '../integrations/report';
import { ConversionQueue, type RunSummary } from './conversionQueue';

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
  return { queue };
}

/** The jobs, re-rendering when one is added, removed or changes status, not on progress. */
export function useJobsByStatus(queue: ConversionQueue) {
  return useSyncExternalStore(queue.subscribe, queue.getJobsByStatus, queue.getJobsByStatus);
}

/** One job as it is now: only its row re-renders when its progress moves. */
export function useJob(queue: ConversionQueue, id: string) {
  const get = () => queue.getJob(id);
  return useSyncExternalStore(queue.subscribe, get, get);
}
