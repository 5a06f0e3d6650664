import { notify } from '../../app/notify.ts';
import { useBrowserAbility } from '../../app/useBrowserAbility.ts';
import { completedOutputs, hasOutput } from './download.ts';
import type { ConversionJob } from '../../conversion/jobs.ts';

/**
 * Sharing outputs to another app (a chat, a gallery) through the Web Share API, where the browser can share files:
 * most phones. Elsewhere the Share buttons are not shown.
 */

function probeFileSharing(): boolean {
  if (typeof navigator.canShare !== 'function') return false;
  try {
    return navigator.canShare({ files: [new File([new Uint8Array(1)], 'probe.png', { type: 'image/png' })] });
  } catch {
    return false;
  }
}

/** Asked once: every job row and the action bar read it on each of their renders. */
let canShare: boolean | null = null;
const canShareFiles = () => (canShare ??= probeFileSharing());

/** Whether to show Share (useBrowserAbility: not before the page is hydrated). */
export function useCanShareFiles(): boolean {
  return useBrowserAbility(canShareFiles);
}

/** `refused`: the browser will not share these files (too many, or too large, for one share). */
export type ShareOutcome = 'shared' | 'cancelled' | 'refused';

/**
 * Opens the system's share sheet with the jobs' outputs (names made unique, as in the zip). Must be called from the
 * tap itself: the browser allows a share only in answer to one.
 */
export async function shareOutputs(jobs: readonly ConversionJob[]): Promise<ShareOutcome> {
  const files = completedOutputs(jobs, { inFolders: false }).map(({ name, blob }) => new File([blob], name, { type: blob.type }));
  if (files.length === 0) return 'cancelled';
  // A browser caps what one share may carry (count and bytes); it says so here rather than failing the share.
  if (!navigator.canShare({ files })) return 'refused';
  try {
    await navigator.share({ files });
    return 'shared';
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    throw error;
  }
}

/**
 * Share, from a job's row (one output) or "Share all": the visitor hears when the browser refuses or the share
 * fails, and nothing when they close the sheet themselves.
 */
export async function shareWithMessages(jobs: readonly ConversionJob[]): Promise<void> {
  const one = jobs.filter(hasOutput).length === 1;
  try {
    if ((await shareOutputs(jobs)) !== 'refused') return;
    if (one) notify.destructive('This image cannot be shared', 'Your browser will not share a file this large. Download it instead.');
    else notify.destructive('Too many to share at once', 'Share fewer images, or use Download All (.zip).');
  } catch (error) {
    console.error('Sharing failed', error);
    notify.destructive('Sharing failed', one ? 'Download the image instead.' : 'Download the images instead.');
  }
}
