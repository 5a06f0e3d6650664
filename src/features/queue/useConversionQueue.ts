import { useEffect, useState, useSyncExternalStore } from 'react';
import { CONVERSION_ERRORS } from '../../../workers/contract';
import { convertInWorker } from '../../../workers/bridge';
import { notify } from '../../app/notify';
import { countOf } from '../../lib/plural';
import { ConversionQueue, type RunSummary } from './conversionQueue';

function announceRun({ succeeded, failed }: RunSummary): void {
  if (succeeded === 0) notify.destructive(CONVERSION_ERRORS.generic, `${countOf(failed, 'image')} could not be converted.`);
  else notify.info('Conversion complete', `${countOf(succeeded, 'image')} converted${failed > 0 ? `, ${failed} failed` : ''}.`);
}

/** One queue for the page's life; the page itself never re-renders for it (the parts that show it subscribe). */
export function useConversionQueue() {
  const [queue] = useState(() => new ConversionQueue({ convert: convertInWorker, onRunFinished: announceRun }));
  useEffect(() => () => queue.dispose(), [queue]);
  return { queue };
}

export function useQueueJobs(queue: ConversionQueue) {
  return useSyncExternalStore(queue.subscribe, queue.getJobs, queue.getJobs);
}
