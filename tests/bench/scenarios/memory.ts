import type { AppSettings } from '../app-page';
import { photoSet } from '../inputs';
import { runApp } from '../runners';
import { repeated } from './repeated';
import { batchScenario, named, ratio } from './scenario';

const SETTINGS: AppSettings = { format: 'WebP', quality: 80, compression: false };

/**
 * 12 vs 48 × 12 MP → WebP with the browser's encoder: does peak memory grow with the batch? Run as often as the
 * others (not once, for its length): a batch's peak moves by ±40 MB with how the two workers' encodes happen to
 * overlap, as much as the growth the goal looks for, and each figure is the worst of its runs.
 */
export const memory = batchScenario({
  id: 'memory',
  inputs: ({ photos }) => photoSet(12, 4000, 3000, photos),
  title: () => '12 vs 48 × 12 MP → WebP q80 (browser encoder): memory growth',
  contenders: (twelve) => {
    const fortyEight = repeated(twelve, 48, '48 × 12 MP');
    return [
      { name: 'app, 12 images', inputs: twelve, once: () => runApp(twelve.paths, SETTINGS) },
      { name: 'app, 48 images', inputs: fortyEight, once: () => runApp(fortyEight.paths, SETTINGS) },
    ];
  },
  goals: [{ label: 'peak memory over the idle page, 48 ÷ 12 images', max: 1.1, value: (c) => ratio(named(c, 'app, 48'), named(c, 'app, 12'), (x) => x.overIdleMb) }],
});
