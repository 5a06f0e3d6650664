import { corpusPhotographs, iphoneHeicSet } from '../inputs.ts';
import { runApp, runBaselinePage, runNative, which } from '../runners.ts';
import { batchScenario, named, ratio } from './scenario.ts';

/**
 * The batch people bring: iPhone photos (HEIC) → JPG, the app against the libraries "HEIC to JPG" pages use (heic-to,
 * heic2any: libheif in WebAssembly, the picture drawn to a canvas and exported at quality 0.8), side by side in one
 * run, and against libheif's own heif-convert with libjpeg-turbo, two processes at a time (what this machine allows).
 */
export const heic = batchScenario({
  id: 'heic',
  inputs: async ({ photos }) => iphoneHeicSet(8, photos ?? corpusPhotographs()),
  inputsNote: 'HEICs made as an iPhone writes a portrait photo from the conformance corpus\'s photographs (MATE\'s nature wallpapers)',
  title: (inputs) => `${inputs.name} → JPG q80: the app against heic-to and heic2any`,
  contenders: (inputs) => [
    { name: 'app, default settings (optimised: jpegli)', inputs, once: () => runApp(inputs.paths, { format: 'JPG', quality: 80, compression: true }) },
    { name: 'app, compression off (browser encoder)', inputs, once: () => runApp(inputs.paths, { format: 'JPG', quality: 80, compression: false }) },
    { name: 'heic-to', inputs, once: () => runBaselinePage('heic-to', inputs.paths, 'image/jpeg', 0.8) },
    { name: 'heic2any', inputs, once: () => runBaselinePage('heic2any', inputs.paths, 'image/jpeg', 0.8) },
    which('heif-convert')
      ? {
          name: 'native heif-convert (libheif, libjpeg-turbo) ×2 processes',
          inputs,
          // heif-convert takes the output's format from its name.
          once: () => runNative(inputs.paths, (input, output) => ['sh', ['-c', 'heif-convert --quiet -q 80 "$0" "$1.jpg" && mv "$1.jpg" "$1"', input, output]]),
        }
      : { name: 'native heif-convert', note: 'heif-convert not installed (apt-get install libheif-examples)' },
  ],
  goals: [
    { label: 'batch time, app default settings ÷ heic-to', max: 0.5, value: (c) => ratio(named(c, 'app, default'), named(c, 'heic-to'), (x) => x.batchMs) },
    { label: 'batch time, app default settings ÷ native heif-convert', max: 2, value: (c) => ratio(named(c, 'app, default'), named(c, 'native'), (x) => x.batchMs) },
    { label: 'long tasks from Convert to zip, app (worst run)', max: 0, value: (c) => named(c, 'app, default')?.longTasks?.count ?? null },
  ],
});
