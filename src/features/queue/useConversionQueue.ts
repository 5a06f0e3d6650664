import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ConversionSettings } from '../../../workers/contract';
import { notify } from '../../app/notify';
import { outputFileName, uniqueFileNames } from '../../lib/fileNames';
import { createId } from '../../lib/ids';
import { countOf } from '../../lib/plural';
import { downloadBlob } from './download';
import { TICK_MS, createJob, jobsReducer, summarise, type ConversionJob } from './jobs';
import { convertInWorker, errorMessage, isAbort, zipInWorker } from './pipeline';

export const ZIP_FILE_NAME = 'converted-images.zip';

/** The queue: a pure reducer for state, the worker pool for work. Components only call these functions. */
export function useConversionQueue() {
  const [jobs, dispatch] = useReducer(jobsReducer, []);
  const controllers = useRef(new Map<string, AbortController>());
  /** Ids of the current run, for the completion toast; null when no run is going. */
  const run = useRef<Set<string> | null>(null);
  const [zipping, setZipping] = useState(false);

  const execute = useCallback((job: ConversionJob, settings: ConversionSettings) => {
    const controller = new AbortController();
    controllers.current.set(job.id, controller);
    convertInWorker(job.file, settings, {
      signal: controller.signal,
      onStart: () => dispatch({ type: 'started', id: job.id }),
      onProgress: ({ percent }) => dispatch({ type: 'progress', id: job.id, percent }),
    })
      .then((result) => {
        const blob = new Blob([result.bytes], { type: result.mimeType });
        dispatch({ type: 'completed', id: job.id, blob, name: outputFileName(job.file.name, settings.outputFormat) });
      })
      .catch((error: unknown) => {
        if (isAbort(error)) return;
        console.error(`Conversion of ${job.file.name} failed`, error);
        dispatch({ type: 'failed', id: job.id, message: errorMessage(error) });
      })
      .finally(() => controllers.current.delete(job.id));
  }, []);

  const start = useCallback(
    (files: readonly File[], settings: ConversionSettings) => {
      const created = files.map((file) => createJob(createId(), file, settings.outputFormat));
      if (created.length === 0) return;
      run.current = new Set([...(run.current ?? []), ...created.map((job) => job.id)]);
      dispatch({ type: 'enqueue', jobs: created });
      for (const job of created) execute(job, settings);
    },
    [execute],
  );

  const cancel = useCallback((id: string) => {
    controllers.current.get(id)?.abort();
    run.current?.delete(id);
    dispatch({ type: 'remove', id });
  }, []);

  const retry = useCallback(
    (job: ConversionJob, settings: ConversionSettings) => {
      if (job.status !== 'error') return;
      run.current = new Set([...(run.current ?? []), job.id]);
      dispatch({ type: 'retry', id: job.id, outputFormat: settings.outputFormat });
      execute({ ...job, outputFormat: settings.outputFormat }, settings);
    },
    [execute],
  );

  const downloadAll = useCallback(async () => {
    const done = jobs.filter((job) => job.status === 'completed' && job.outputBlob && job.outputName);
    if (done.length === 0) return;
    setZipping(true);
    try {
      const names = uniqueFileNames(done.map((job) => job.outputName!));
      const zip = await zipInWorker(done.map((job, i) => ({ name: names[i]!, file: job.outputBlob! })));
      downloadBlob(zip, ZIP_FILE_NAME);
    } catch (error) {
      console.error('Building the zip failed', error);
      notify.destructive('Download failed', 'The zip could not be built. Download the files one by one instead.');
    } finally {
      setZipping(false);
    }
  }, [jobs]);

  const clearFinished = useCallback(() => dispatch({ type: 'clear' }), []);

  const { running, completed, failed } = summarise(jobs);
  const anyProcessing = jobs.some((job) => job.status === 'processing');

  // The spec's simulated progress keeps a running job's bar moving between the worker's stage reports.
  useEffect(() => {
    if (!anyProcessing) return;
    const timer = setInterval(() => dispatch({ type: 'tick' }), TICK_MS);
    return () => clearInterval(timer);
  }, [anyProcessing]);

  // The completion step: once every job of the run has settled, say how it went.
  useEffect(() => {
    const ids = run.current;
    if (!ids) return;
    const ofRun = jobs.filter((job) => ids.has(job.id));
    if (ofRun.some((job) => job.status === 'pending' || job.status === 'processing')) return;
    run.current = null;
    const ok = ofRun.filter((job) => job.status === 'completed').length;
    const bad = ofRun.length - ok;
    if (ofRun.length === 0) return;
    if (ok === 0) notify.destructive('Conversion failed', `${countOf(bad, 'image')} could not be converted.`);
    else notify.info('Conversion complete', `${countOf(ok, 'image')} converted${bad > 0 ? `, ${bad} failed` : ''}.`);
  }, [jobs]);

  return { jobs, converting: running > 0, completed, failed, zipping, start, cancel, retry, downloadAll, clearFinished };
}
