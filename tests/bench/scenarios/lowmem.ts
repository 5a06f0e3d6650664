import { photoSet } from '../inputs.ts';
import { runApp } from '../runners.ts';
import { batchScenario } from './scenario.ts';

/**
 * A phone's memory: the page told navigator.deviceMemory is 2 (what a 2 GB phone reports), so the pool's budget lets
 * one 12 MP photo decode at a time; beside the same batch at 8.
 */
export const lowmem = batchScenario({
  id: 'lowmem',
  inputs: ({ photos }) => photoSet(12, 4000, 3000, photos),
  title: (inputs) => `${inputs.name} JPEG → WebP q80 with a phone's memory (deviceMemory 2 vs 8)`,
  contenders: (inputs) =>
    ([8, 2] as const).flatMap((deviceMemoryGb) =>
      ([true, false] as const).map((compression) => ({
        name: `app, ${compression ? 'optimised' : 'compression off'}, deviceMemory ${deviceMemoryGb}`,
        inputs,
        once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression }, { deviceMemoryGb }),
      })),
    ),
});
