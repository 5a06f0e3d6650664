import type { AppSettings } from '../app-page.ts';
import { TAP_EVERY_MS } from '../../phone-cpu.ts';
import { corpusGallery, photoSet, type InputSet } from '../inputs.ts';
import { measure } from '../measure.ts';
import { runApp, runBaselinePage } from '../runners.ts';
import { named, ratio, type BatchResult, type Goal, type Scenario } from './scenario.ts';

interface PhoneBatch {
  id: string;
  inputs: (photos?: string[]) => Promise<InputSet>;
  settings: AppSettings;
  type: string;
  title: string;
  /** What the inputs are, when the batch's own whatever --photos says (BatchResult.inputs). */
  inputsNote?: string;
}

const TO_JPG = { settings: { format: 'JPG', quality: 80, compression: false } as AppSettings, type: 'image/jpeg', title: 'JPEG → JPG q80, compression off' };
const TO_WEBP = { settings: { format: 'WebP', quality: 80, compression: true } as AppSettings, type: 'image/webp', title: 'JPEG → WebP q80, default settings (optimised)' };

/**
 * Three batches: 8 photos to JPG with the browser's encoder (fast jobs, many updates), 4 with the default settings,
 * and the corpus's real photos as a phone's gallery holds them (progressive, XMP, thumbnails, 1.3–9.2 MP) to JPG.
 */
const BATCHES: PhoneBatch[] = [
  { id: 'phone', inputs: (photos) => photoSet(8, 4000, 3000, photos), ...TO_JPG },
  { id: 'phone-default', inputs: (photos) => photoSet(4, 4000, 3000, photos), ...TO_WEBP },
  { id: 'phone-gallery', inputs: async () => corpusGallery(), inputsNote: "the conformance corpus's real photos, the files as they are", ...TO_JPG },
];

const GOALS: Goal[] = [
  { label: 'slowest tap during the batch, app at 4× (worst run, ms)', max: 100, value: (c) => named(c, 'app, phone, CPU 4×')?.taps?.slowestMs ?? null },
  { label: 'long tasks from Convert to zip, app at 4× (worst run)', max: 0, value: (c) => named(c, 'app, phone, CPU 4×')?.longTasks?.count ?? null },
  { label: 'batch time, app at 4× ÷ unthrottled', max: 1.1, value: (c) => ratio(named(c, 'app, phone, CPU 4×'), named(c, 'app, phone, CPU unthrottled'), (x) => x.batchMs) },
  { label: 'peak memory over the idle page, app at 4× ÷ seed design at 4×', max: 1.5, value: (c) => ratio(named(c, 'app, phone, CPU 4×'), named(c, 'seed design'), (x) => x.overIdleMb) },
];

/**
 * A phone's CPU: a 390 × 844 touch screen, the page 4× (and 6×) slower, "Rotate right" tapped every 600 ms while the
 * batch runs; the same batch unthrottled, and the baselines under the same throttle.
 */
export const phone: Scenario = {
  id: 'phone',
  async run({ runs, photos, match }) {
    const results: BatchResult[] = [];
    for (const batch of BATCHES) {
      const inputs = await batch.inputs(photos);
      const app = (slowdown: number) => () => runApp(inputs.paths, batch.settings, { phone: { slowdown } });
      const baseline = (page: 'seed' | 'bic', slowdown: number, concurrency = 3) => () => runBaselinePage(page, inputs.paths, batch.type, 0.8, { slowdown }, concurrency);
      const contenders = await measure(
        runs,
        [
          { name: 'app, phone, CPU 4× slower', inputs, once: app(4) },
          { name: 'app, phone, CPU 6× slower', inputs, once: app(6) },
          { name: 'app, phone, CPU unthrottled', inputs, once: app(1) },
          { name: 'seed design, phone, CPU 4× slower', inputs, once: baseline('seed', 4) },
          { name: 'browser-image-compression, phone, CPU 4× slower', inputs, once: baseline('bic', 4) },
          // What the emulation itself costs a worker-based converter (its throttle busy-waits on the page's thread).
          { name: 'browser-image-compression, phone, CPU unthrottled', inputs, once: baseline('bic', 1) },
          // The floor this machine sets: one image at a time in one worker, beside a page that only answers taps.
          { name: 'browser-image-compression one at a time, phone, CPU 4× slower', inputs, once: baseline('bic', 4, 1) },
        ],
        match,
      );
      const goals = GOALS.map((goal) => ({ label: goal.label, max: goal.max, value: goal.value(contenders) }));
      results.push({ kind: 'batch', id: batch.id, title: `A phone's CPU: ${inputs.name} ${batch.title}, taps every ${TAP_EVERY_MS} ms`, contenders, goals, inputs: batch.inputsNote });
    }
    return results;
  },
};
