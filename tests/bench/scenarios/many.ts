import { photoSet } from '../inputs.ts';
import { runApp } from '../runners.ts';
import { repeated } from './repeated.ts';
import { batchScenario } from './scenario.ts';

/** A heavy batch: 200 photos of 2 MP with the default settings. */
export const many = batchScenario({
  id: 'many',
  runs: 1,
  inputs: async ({ photos }) => repeated(await photoSet(6, 1600, 1200, photos), 200, '200 × 2 MP'),
  title: () => '200 × 2 MP JPEG → WebP q80 (default settings)',
  contenders: (inputs) => [{ name: 'app, 200 × 2 MP, default settings (optimised)', inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true }) }],
  goals: [{ label: 'long tasks from Convert to zip', max: 0, value: (c) => c[0]?.longTasks?.count ?? null }],
});
