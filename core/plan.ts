import type { ConversionSettings, JobPlan, SourceHeader } from './contract';
import { formatInfo } from './formats';
import { planGeometry, rotated, turned, type Size } from './geometry';
import { decodedBytes } from './memory';
import { usesBrowserEncoder } from './policy';

/** The source as shown: its stored size, turned a quarter when its orientation says so. */
export const shownSize = (source: SourceHeader): Size => (source.turned ? turned(source.size) : source.size);

/**
 * A job's plan from its source's header and the settings: made once on the page as the job starts, carried to the
 * worker in the request. The cost is the decoded bytes held at the largest, the source's or a larger output's.
 */
export function planJob(source: SourceHeader, settings: ConversionSettings): JobPlan {
  const shown = rotated(shownSize(source), settings.rotation);
  const geometry = planGeometry(shown, settings);
  return {
    source,
    shown,
    geometry,
    cost: Math.max(decodedBytes(source.size), decodedBytes(geometry)),
    browserEncoder: usesBrowserEncoder(settings, formatInfo(settings.outputFormat)),
  };
}
