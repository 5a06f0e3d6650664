import { FORMATS } from '../../../core/formats.ts';
import { photoSet, type InputSet } from '../inputs.ts';
import { runApp, runNative, which } from '../runners.ts';
import { batchScenario, named } from './scenario.ts';

/** What a phone says of its memory: the device the goal is for (issue: JPEG XL that a phone can afford). */
const PHONE_MEMORY_GB = 4;
const EFFORT = FORMATS.jxl.optimisedOptions.effort;

/**
 * One photo at a time → JPEG XL q80 (the default effort) on a page told it runs on a 4 GB device: the whole browser's
 * peak memory over its idle page, 12 MP against 48 MP (libjxl encodes a large picture a DC group at a time, so it
 * should stay about flat), beside the same photo on an 8 GB desktop (libjxl's threaded build, on every core), the
 * same 12 MP photo to JPG, and native cjxl's time at the same effort on one thread.
 */
export const jxl = batchScenario({
  id: 'jxl',
  // The 12 MP photo, then the 48 MP one.
  inputs: async ({ photos }) => {
    const [twelve, fortyEight] = [await photoSet(1, 4000, 3000, photos), await photoSet(1, 8000, 6000, photos)];
    return { name: `${twelve.name} and ${fortyEight.name}`, paths: [...twelve.paths, ...fortyEight.paths] };
  },
  title: (inputs) => `${inputs.name} JPEG → JPEG XL q80, one at a time, on a 4 GB device`,
  contenders: (inputs) => {
    const [twelve, fortyEight] = inputs.paths.map((path, i) => ({ name: i === 0 ? '1 × 12 MP' : '1 × 48 MP', paths: [path] }));
    const jxlAt = (input: InputSet, deviceMemoryGb = PHONE_MEMORY_GB) => () => runApp(input.paths, { format: 'JPEG XL', quality: 80, compression: true }, { deviceMemoryGb });
    return [
      { name: `app, JPEG XL (effort ${EFFORT}), 12 MP`, inputs: twelve!, once: jxlAt(twelve!) },
      { name: `app, JPEG XL (effort ${EFFORT}), 48 MP`, inputs: fortyEight!, once: jxlAt(fortyEight!) },
      // A desktop's: libjxl's threaded build, the job alone on every core.
      { name: `app, JPEG XL (effort ${EFFORT}), 12 MP, 8 GB device (threaded)`, inputs: twelve!, once: jxlAt(twelve!, 8) },
      { name: 'app, JPG, 12 MP', inputs: twelve!, once: () => runApp(twelve!.paths, { format: 'JPG', quality: 80, compression: true }, { deviceMemoryGb: PHONE_MEMORY_GB }) },
      which('cjxl')
        ? { name: `native cjxl (effort ${EFFORT}, one thread), 12 MP`, inputs: twelve!, once: () => runNative(twelve!.paths, (i, o) => ['cjxl', [i, o, '-q', '80', '-e', String(EFFORT), '--num_threads', '0', '--lossless_jpeg=0', '--quiet']]) }
        : { name: 'native cjxl', note: 'cjxl not installed (apt-get install libjxl-tools)' },
    ];
  },
  // The 48 MP job's memory grows with what every job holds by the pixel (the decoded source, the copy libjxl reads, the
  // decoded output its look is judged on); libjxl's own heap stays about flat (`npm run bench:heaps -- --only jxl`).
  goals: [{ label: 'peak memory over the idle page, JPEG XL 12 MP (MB)', max: 700, value: (c) => named(c, `app, JPEG XL (effort ${EFFORT}), 12`)?.overIdleMb ?? null }],
});
