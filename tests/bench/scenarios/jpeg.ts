import { photoSet, ppmCopy } from '../inputs.ts';
import { runApp, runBaselinePage, runNative, which } from '../runners.ts';
import type { ContenderSummary } from '../measure.ts';
import { batchScenario, named, ratio } from './scenario.ts';

/**
 * Points of SSIMULACRA2 by which jpegli's worst output may look better than the browser encoder's and its bytes still
 * count as at an equal look. The quality map is made so that no photograph looks worse, so some look a little better:
 * on the corpus's photos (`--photos`) jpegli's worst output is 1.5 points above the browser's; on the synthetic
 * scenes' grain, 4.5 (docs/decisions/encoder-settings.md).
 */
const EQUAL_LOOK_POINTS = 2;

/** Why the bytes are not at an equal look (jpegli's worst output looks that much better), or null where they are. */
function betterLook(jpegli: ContenderSummary | undefined, browser: ContenderSummary | undefined): string | null {
  if (!jpegli?.look || !browser?.look || jpegli.look.worst - browser.look.worst <= EQUAL_LOOK_POINTS) return null;
  return `not at an equal look: jpegli's outputs look better (SSIMULACRA2 worst ${jpegli.look.worst} against ${browser.look.worst}); at an equal look on photographs, \`--photos\``;
}

/** 12 × 12 MP JPEG → JPEG q80: the browser's encoder and jpegli, beside the baselines and native cjpeg. */
export const jpeg = batchScenario({
  id: 'jpeg',
  inputs: ({ photos }) => photoSet(12, 4000, 3000, photos),
  title: (inputs) => `${inputs.name} JPEG → JPEG q80`,
  contenders: (inputs) => [
    { name: 'app, compression off (browser encoder)', inputs, once: () => runApp(inputs.paths, { format: 'JPG', quality: 80, compression: false }) },
    { name: 'app, compression on (jpegli WASM)', inputs, once: () => runApp(inputs.paths, { format: 'JPG', quality: 80, compression: true }) },
    { name: 'seed design (main-thread canvas)', inputs, once: () => runBaselinePage('seed', inputs.paths, 'image/jpeg', 0.8) },
    { name: 'browser-image-compression', inputs, once: () => runBaselinePage('bic', inputs.paths, 'image/jpeg', 0.8) },
    which('cjpeg')
      ? { name: 'native cjpeg (libjpeg-turbo) ×2 processes', inputs, once: () => runNative(inputs.paths, (i, o) => ['cjpeg', ['-quality', '80', '-optimize', '-outfile', o, i]], ppmCopy) }
      : { name: 'native cjpeg', note: 'cjpeg not installed (apt-get install libjpeg-turbo-progs)' },
  ],
  goals: [
    { label: 'batch time, app with compression off ÷ browser-image-compression', max: 1.0, value: (c) => ratio(named(c, 'app, compression off'), named(c, 'browser-image-compression'), (x) => x.batchMs) },
    // At the same slider setting jpegli looks at least as good as the browser's encoder (bench:encoders -- --look): the
    // goal is the bytes at an equal look, so a run where jpegli's outputs look clearly better does not answer it.
    {
      label: 'bytes, app with jpegli ÷ compression off',
      max: 0.85,
      value: (c) => ratio(named(c, 'app, compression on'), named(c, 'app, compression off'), (x) => x.totalBytes),
      heldOff: (c) => betterLook(named(c, 'app, compression on'), named(c, 'app, compression off')),
    },
    { label: 'batch time, app with jpegli ÷ compression off', max: 1.5, value: (c) => ratio(named(c, 'app, compression on'), named(c, 'app, compression off'), (x) => x.batchMs) },
    { label: 'long tasks from Convert to zip, app (worst run)', max: 0, value: (c) => named(c, 'app, compression off')?.longTasks?.count ?? null },
  ],
});
