import { photoSet } from '../inputs.ts';
import { runApp } from '../runners.ts';
import { batchScenario } from './scenario.ts';

const PRESET = 'Web 1920 wide';

/** A phone's everyday resize: 12 MP photos for the web, which decode smaller. */
export const resize = batchScenario({
  id: 'resize',
  inputs: ({ photos }) => photoSet(12, 4000, 3000, photos),
  title: (inputs) => `${inputs.name} JPEG → WebP q80, "${PRESET}"`,
  contenders: (inputs) => [
    { name: 'app, optimised', inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true, preset: PRESET }) },
    { name: 'app, compression off', inputs, once: () => runApp(inputs.paths, { format: 'WebP', quality: 80, compression: false, preset: PRESET }) },
  ],
});
