import { FORMATS } from '../../../core/formats';
import { photoSet } from '../inputs';
import { runApp, runNative, which } from '../runners';
import { batchScenario, named, ratio } from './scenario';

// jSquash's AVIF quality q maps to quantizer round((100 − q) × 63 / 100); avifenc takes the quantizer.
const QUANTIZER = String(Math.round(((100 - 80) * 63) / 100));

/** 6 × 2 MP → AVIF q80: libavif in WASM against native avifenc at its default speed. */
export const avif = batchScenario({
  id: 'avif',
  inputs: ({ photos }) => photoSet(6, 1600, 1200, photos),
  title: (inputs) => `${inputs.name} JPEG → AVIF q80`,
  contenders: (inputs) => [
    { name: `app (libavif WASM, speed ${FORMATS.avif.optimisedOptions.speed})`, inputs, once: () => runApp(inputs.paths, { format: 'AVIF', quality: 80, compression: true }) },
    { name: 'seed design (main-thread canvas)', note: 'cannot: no browser encodes AVIF from a canvas (toBlob returns PNG)' },
    { name: 'browser-image-compression', note: 'cannot: it encodes through the canvas too' },
    which('avifenc')
      ? { name: 'native avifenc ×2 processes (speed 6)', inputs, once: () => runNative(inputs.paths, (i, o) => ['avifenc', ['-s', '6', '-j', '1', '--min', QUANTIZER, '--max', QUANTIZER, i, o]]) }
      : { name: 'native avifenc', note: 'avifenc not installed (apt-get install libavif-bin)' },
  ],
  goals: [{ label: 'batch time, app ÷ native avifenc', max: 1.5, value: (c) => ratio(named(c, 'app'), named(c, 'native avifenc'), (x) => x.batchMs) }],
});
