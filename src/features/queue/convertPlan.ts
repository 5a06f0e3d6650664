import { acceptedFormatsText } from '../../../core/formats.ts';
import type { FileOutcome } from '../../conversion/jobs.ts';

/** What a selected file's card says of it. */
export type FileState = 'ready' | 'converting' | 'converted' | 'failed';

export const FILE_STATE_TEXT: Record<FileState, string> = {
  ready: 'Ready to convert',
  converting: 'Converting…',
  converted: 'Converted',
  failed: 'Conversion failed',
};

export const CONVERT_BLOCKED = {
  noFiles: 'Upload images to start converting',
  noValidFiles: `None of these files can be converted. Add ${acceptedFormatsText({ serialComma: false })} images.`,
  allConverted: 'All converted with these settings. Change a setting to convert again.',
  onlyFailed: 'The images left failed with these settings: retry them in the queue, or change a setting.',
  targetSizeMissing: 'Enter a target size in KB, or turn Target file size off.',
} as const;

interface Candidate {
  id: string;
  file: File;
  isValid: boolean;
}

export interface ConvertPlan<T extends Candidate> {
  /** The files Convert starts: valid, and with no job yet for these settings (a failed one has its Retry). */
  toConvert: T[];
  /** Every one of them was converted before, with other settings. */
  again: boolean;
  /** Why Convert cannot start now, or null. */
  blocked: string | null;
  /** Each valid file's state for these settings, by id. */
  states: ReadonlyMap<string, FileState>;
}

const STATE_OF: Record<FileOutcome, FileState> = { completed: 'converted', running: 'converting', error: 'failed' };

/**
 * Which selected files a Convert with these settings would start, and why it cannot when it cannot: a file
 * converted (or converting) with the same settings is done, so converting twice by accident makes no duplicate jobs;
 * changing a setting makes every file convertible again.
 */
export function planConvert<T extends Candidate>(
  files: readonly T[],
  outcomes: ReadonlyMap<File, ReadonlyMap<string, FileOutcome>>,
  settingsKey: string,
  { targetSizeMissing }: { targetSizeMissing: boolean },
): ConvertPlan<T> {
  const states = new Map<string, FileState>();
  const toConvert: T[] = [];
  for (const candidate of files) {
    if (!candidate.isValid) continue;
    const outcome = outcomes.get(candidate.file)?.get(settingsKey);
    states.set(candidate.id, outcome ? STATE_OF[outcome] : 'ready');
    if (!outcome) toConvert.push(candidate);
  }
  const again = toConvert.length > 0 && toConvert.every((c) => [...(outcomes.get(c.file)?.values() ?? [])].includes('completed'));
  const left = [...states.values()];
  let blocked: string | null = null;
  if (files.length === 0) blocked = CONVERT_BLOCKED.noFiles;
  else if (states.size === 0) blocked = CONVERT_BLOCKED.noValidFiles;
  else if (targetSizeMissing) blocked = CONVERT_BLOCKED.targetSizeMissing;
  else if (toConvert.length === 0 && !left.includes('converting')) blocked = left.includes('failed') ? CONVERT_BLOCKED.onlyFailed : CONVERT_BLOCKED.allConverted;
  return { toConvert, again, blocked, states };
}
