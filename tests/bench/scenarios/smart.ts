import { smartTarget } from '../../../core/look';
import { corpusPhotographs } from '../inputs';
import { runApp } from '../runners';
import { batchScenario, named, ratio } from './scenario';

const LEVEL = 85;

/**
 * Smart compression against a fixed quality (issue 42): the corpus's twelve photographs (MATE's nature wallpapers,
 * 1.3–4.9 MP) → the default format, WebP, at quality 80 and with Smart compression at the default level. The outputs'
 * bytes, the batch's time, and the scores the app showed (worst and median): each must be at or above the level's target.
 */
export const smart = batchScenario({
  id: 'smart',
  inputs: () => Promise.resolve({ name: "the corpus's 12 photographs as they are", paths: corpusPhotographs() }),
  inputsNote: "the conformance corpus's photographs (MATE's nature wallpapers), the files as they are",
  title: (inputs) => `${inputs.name} → WebP: quality 80 against Smart compression (level ${LEVEL}, target SSIMULACRA2 ≥ ${smartTarget(LEVEL)})`,
  contenders: (inputs) => [
    { name: `app, Smart compression level ${LEVEL}`, inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true, smartLevel: LEVEL }) },
    { name: 'app, quality 80 (default settings)', inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true }) },
  ],
  goals: [
    { label: 'output bytes, Smart ÷ quality 80', max: 0.75, value: (c) => ratio(named(c, 'app, Smart'), named(c, 'app, quality 80'), (x) => x.totalBytes) },
    { label: 'batch time, Smart ÷ quality 80', max: 2, value: (c) => ratio(named(c, 'app, Smart'), named(c, 'app, quality 80'), (x) => x.batchMs) },
    // Reported as the distance under the target, so "at or under 0" reads as every image at or above it.
    { label: `worst score under the target ${smartTarget(LEVEL)} (points; 0 or less: none under)`, max: 0, value: (c) => { const worst = named(c, 'app, Smart')?.look?.worst; return worst == null ? null : smartTarget(LEVEL) - worst; } },
  ],
});
