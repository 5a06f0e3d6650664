import { FORMATS } from '../../../core/formats.ts';
import { photoSet, type InputSet } from '../inputs.ts';
import { runApp, runNative, which } from '../runners.ts';
import type { Contender, Skipped } from '../measure.ts';
import { batchScenario, named, ratio, type BatchScenario, type Goal } from './scenario.ts';

// jSquash's AVIF quality q maps to quantizer round((100 − q) × 63 / 100); avifenc takes the quantizer.
const QUANTIZER = String(Math.round(((100 - 80) * 63) / 100));
const SPEED = FORMATS.avif.optimisedOptions.speed;

/**
 * The app's AVIF as served (cross-origin isolated, so libavif runs on threads: core/isolation.ts) and as a host that
 * sends no isolation headers serves it (one thread), against native avifenc.
 */
const appContenders: BatchScenario['contenders'] = (inputs) => [
  { name: `app (libavif WASM, speed ${SPEED}, threaded)`, inputs, once: () => runApp(inputs.paths, { format: 'AVIF', quality: 80, compression: true }) },
  { name: 'app, not cross-origin isolated (one thread)', inputs, once: () => runApp(inputs.paths, { format: 'AVIF', quality: 80, compression: true }, { isolated: false }) },
];

/** Native avifenc at its default speed with `jobs` threads (`-j`), two processes at a time. */
const nativeAvifenc = (inputs: InputSet, jobs: '1' | 'all', name: string): Contender | Skipped =>
  which('avifenc')
    ? { name, inputs, once: () => runNative(inputs.paths, (i, o) => ['avifenc', ['-s', '6', '-j', jobs, '--min', QUANTIZER, '--max', QUANTIZER, i, o]]) }
    : { name: 'native avifenc', note: 'avifenc not installed (apt-get install libavif-bin)' };

const threadsGoal: Goal = { label: 'batch time, app ÷ app not cross-origin isolated', max: 1, value: (c) => ratio(named(c, 'app ('), named(c, 'app, not'), (x) => x.batchMs) };

/** 6 × 2 MP → AVIF q80: libavif in WASM against native avifenc at its default speed. */
export const avif = batchScenario({
  id: 'avif',
  inputs: ({ photos }) => photoSet(6, 1600, 1200, photos),
  title: (inputs) => `${inputs.name} JPEG → AVIF q80`,
  contenders: (inputs) => [
    ...appContenders(inputs),
    { name: 'seed design (main-thread canvas)', note: 'cannot: no browser encodes AVIF from a canvas (toBlob returns PNG)' },
    { name: 'browser-image-compression', note: 'cannot: it encodes through the canvas too' },
    nativeAvifenc(inputs, '1', 'native avifenc ×2 processes (speed 6)'),
  ],
  goals: [{ label: 'batch time, app ÷ native avifenc', max: 1.5, value: (c) => ratio(named(c, 'app ('), named(c, 'native avifenc'), (x) => x.batchMs) }, threadsGoal],
});

/** One 24 MP photo → AVIF q80: what threads do for a single large encode, which a batch's parallel jobs cannot help. */
export const avifLarge = batchScenario({
  id: 'avif-large',
  inputs: ({ photos }) => photoSet(1, 6000, 4000, photos),
  title: (inputs) => `${inputs.name} JPEG → AVIF q80`,
  contenders: (inputs) => [
    ...appContenders(inputs),
    nativeAvifenc(inputs, 'all', 'native avifenc (speed 6, every core)'),
  ],
  goals: [threadsGoal],
});
