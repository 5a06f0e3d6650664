import { useEffect, useRef, useState } from 'react';
import type { ConversionSettings, OutputSample } from '../../../core/contract.ts';
import { hasTargetSize } from '../../../core/policy.ts';
import { planFor, sampleInWorker } from '../../conversion/bridge.ts';
import { settingsKey } from '../settings/settings.ts';
import type { EstimatedFile } from './estimate.ts';
import { readStorageRoom, storageShortfall, type StorageShortfall } from './storageRoom.ts';

export interface BatchEstimate {
  bytes: number;
  /** "About 14 MB for 50 images · −72%". */
  text: string;
  /** Where the batch is kept on the device and would not fit its room: what it needs, and the room left. */
  storage: StorageShortfall | null;
}

/** A settings change is estimated once the visitor has paused this long: a slider dragged asks for one estimate, not twenty. */
const SETTLE_MS = 600;

/** The most a file's output can weigh under these settings: the target size, or its own size when the original is kept if smaller. */
function capFor(file: File, sameFormat: boolean, settings: ConversionSettings): number | null {
  const caps = [hasTargetSize(settings) ? settings.targetFileSize * 1024 : null, settings.keepOriginalIfLarger && sameFormat ? file.size : null].filter((cap) => cap !== null);
  return caps.length > 0 ? Math.min(...caps) : null;
}

/**
 * What Convert would make of these files, before it is pressed (estimate.ts): a few files sampled by the conversion
 * workers while no batch runs, one at a time, each once per settings; asked again when the files or the settings
 * change (after a pause); none while a batch converts, so it never takes a worker from one. `files` should keep its
 * identity while the batch is the same (a memoised plan's).
 */
export function useBatchEstimate(files: readonly File[], settings: ConversionSettings, converting: boolean, keepsOnDevice: () => boolean): BatchEstimate | null {
  const [estimate, setEstimate] = useState<BatchEstimate | null>(null);
  const samples = useRef(new WeakMap<File, Map<string, OutputSample>>());
  useEffect(() => {
    setEstimate(null);
    if (files.length === 0 || converting) return;
    let live = true;
    const key = settingsKey(settings);
    const sampleOf = async (file: File): Promise<OutputSample> => {
      const known = samples.current.get(file)?.get(key);
      if (known) return known;
      const sample = await sampleInWorker(file, settings);
      // Kept even when it came too late for this estimate: the next one with these settings takes it.
      samples.current.set(file, (samples.current.get(file) ?? new Map()).set(key, sample));
      return sample;
    };
    const timer = setTimeout(async () => {
      try {
        // The arithmetic loads with the first estimate: the idle page does not need it.
        const { estimateBytes, estimateText, filesToSample } = await import('./estimate.ts');
        const entries: EstimatedFile[] = await Promise.all(
          files.map(async (file) => {
            const plan = await planFor(file, settings);
            const format = plan.source.format;
            return {
              file,
              format,
              inputPixels: plan.source.size.width * plan.source.size.height,
              outputPixels: plan.geometry.width * plan.geometry.height,
              cap: capFor(file, format === settings.outputFormat, settings),
            };
          }),
        );
        const measured = new Map<File, OutputSample>();
        // One at a time: a sample takes a worker, and the visitor may press Convert any moment.
        for (const entry of filesToSample(entries)) {
          if (!live) return;
          measured.set(entry.file, await sampleOf(entry.file));
        }
        if (!live) return;
        const bytes = estimateBytes(entries, measured);
        const sourceBytes = files.reduce((sum, file) => sum + file.size, 0);
        // Only a batch the device keeps (its sources and outputs) can outgrow the device's room.
        const storage = keepsOnDevice() ? storageShortfall(sourceBytes, bytes, await readStorageRoom()) : null;
        if (!live) return;
        setEstimate({ bytes, text: estimateText(bytes, files.length, sourceBytes), storage });
      } catch (error) {
        // A file that cannot be sampled leaves the bar without an estimate; converting it says why.
        if (live) console.warn('No estimate for this batch', error);
      }
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [files, settings, converting, keepsOnDevice]);

  return estimate;
}
