import type { AppSettings } from '../app-page.ts';
import { photoSet } from '../inputs.ts';
import { runApp } from '../runners.ts';
import { repeated } from './repeated.ts';
import { batchScenario, named, ratio } from './scenario.ts';

/** The default settings: WebP through the browser's own libwebp (before it, libwebp's WASM build). */
const DEFAULT_SETTINGS: AppSettings = { format: 'WebP', quality: 80, compression: true };
/** The browser's encoder: two 12 MP encodes at once on two cores, the harder case for a flat peak. */
const BROWSER_ENCODER: AppSettings = { format: 'WebP', quality: 80, compression: false };

/**
 * 12 vs 48 × 12 MP → WebP: does peak memory grow with the batch? With the default settings and with the browser's
 * encoder. Run as often as the others (not once, for its length): a batch's peak moves with how the workers' encodes
 * happen to overlap, as much as the growth the goal looks for, and each figure is the worst of its runs.
 */
export const memory = batchScenario({
  id: 'memory',
  inputs: ({ photos }) => photoSet(12, 4000, 3000, photos),
  title: () => '12 vs 48 × 12 MP → WebP q80: memory growth',
  contenders: (twelve) => {
    const fortyEight = repeated(twelve, 48, '48 × 12 MP');
    return [
      { name: 'app, default settings, 12 images', inputs: twelve, once: () => runApp(twelve.paths, DEFAULT_SETTINGS) },
      { name: 'app, default settings, 48 images', inputs: fortyEight, once: () => runApp(fortyEight.paths, DEFAULT_SETTINGS) },
      { name: 'app, compression off, 12 images', inputs: twelve, once: () => runApp(twelve.paths, BROWSER_ENCODER) },
      { name: 'app, compression off, 48 images', inputs: fortyEight, once: () => runApp(fortyEight.paths, BROWSER_ENCODER) },
    ];
  },
  goals: [
    { label: 'peak memory over the idle page, 48 ÷ 12 images, default settings', max: 1.1, value: (c) => ratio(named(c, 'app, default settings, 48'), named(c, 'app, default settings, 12'), (x) => x.overIdleMb) },
    { label: 'peak memory over the idle page, 48 ÷ 12 images, compression off', max: 1.1, value: (c) => ratio(named(c, 'app, compression off, 48'), named(c, 'app, compression off, 12'), (x) => x.overIdleMb) },
  ],
});
