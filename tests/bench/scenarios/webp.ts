import { photoSet } from '../inputs.ts';
import { runApp, runBaselinePage, runNative, which } from '../runners.ts';
import { batchScenario, named, ratio } from './scenario.ts';

/**
 * 12 × 12 MP JPEG → WebP q80: the app with its default settings (optimised: the browser's libwebp) and with
 * compression off, beside the baselines and native cwebp.
 */
export const webp = batchScenario({
  id: 'webp',
  inputs: ({ photos }) => photoSet(12, 4000, 3000, photos),
  title: (inputs) => `${inputs.name} JPEG → WebP q80`,
  contenders: (inputs) => [
    { name: 'app, default settings (optimised)', inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true }) },
    // The memory goal is for phones: the budget of a device of 4 GB or less.
    { name: 'app, default settings, deviceMemory 4', inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true }, { deviceMemoryGb: 4 }) },
    { name: 'app, compression off (browser encoder)', inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: false }) },
    { name: 'seed design (main-thread canvas)', inputs, once: () => runBaselinePage('seed', inputs.paths, 'image/webp', 0.8) },
    { name: 'browser-image-compression', inputs, once: () => runBaselinePage('bic', inputs.paths, 'image/webp', 0.8) },
    which('cwebp')
      ? { name: 'native cwebp ×2 processes', inputs, once: () => runNative(inputs.paths, (i, o) => ['cwebp', ['-quiet', '-q', '80', i, '-o', o]]) }
      : { name: 'native cwebp', note: 'cwebp not installed (apt-get install webp)' },
  ],
  goals: [
    { label: 'batch time, app with compression off ÷ browser-image-compression', max: 1.0, value: (c) => ratio(named(c, 'app, compression off'), named(c, 'browser-image-compression'), (x) => x.batchMs) },
    { label: 'batch time, app with compression off ÷ native cwebp', max: 1.15, value: (c) => ratio(named(c, 'app, compression off'), named(c, 'native cwebp'), (x) => x.batchMs) },
    { label: 'peak memory over the idle page, app default settings on a 4 GB device ÷ seed design', max: 1.5, value: (c) => ratio(named(c, 'app, default settings, deviceMemory 4'), named(c, 'seed design'), (x) => x.overIdleMb) },
    // A desktop (this machine's Chromium reports 16 GB) uses its cores where its memory allows.
    { label: 'peak memory over the idle page, app default settings on this desktop (MB)', max: 1024, value: (c) => named(c, 'app, default settings (optimised)')?.overIdleMb ?? null },
    { label: 'batch time, app default settings on this desktop (s)', max: 13, value: (c) => { const ms = named(c, 'app, default settings (optimised)')?.batchMs; return ms == null ? null : ms / 1000; } },
    { label: 'long tasks from Convert to zip, app (worst run)', max: 0, value: (c) => named(c, 'app, default settings (optimised)')?.longTasks?.count ?? null },
  ],
});
