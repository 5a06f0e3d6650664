import { dirname } from 'node:path';
import type { ContenderSummary } from '../measure.ts';
import { corpusPhotographs, iphoneHeicSet, photoFolder, photoSet } from '../inputs.ts';
import { runApp } from '../runners.ts';
import { batchScenario, named, ratio, type PerImageTable } from './scenario.ts';

/** The long batch's size: a phone's whole trip (BENCH_SCALE sets another, for a shorter look). */
const LONG = Number(process.env.BENCH_SCALE || 1000);
/** The batch the long one is held against. */
const SHORT = 50;
/** The phone's batch, at 4× CPU. */
const PHONE = 100;
/** What a mid-range phone says it has (navigator.deviceMemory): the pool's budget and the decodes follow it. */
const DEVICE_MEMORY_GB = 4;
const SETTINGS = { format: 'JPG', quality: 80, compression: true } as const;

const LONG_NAME = `app, ${LONG.toLocaleString('en')} photos (a folder), 4 GB device`;
const SHORT_NAME = `app, ${SHORT} photos (a folder), 4 GB device`;
const PHONE_NAME = `app, ${PHONE} photos on a phone (CPU 4×)`;

/** The long batch's time a photo ÷ the short one's, or null where either did not run. */
function perPhotoRatio(contenders: readonly ContenderSummary[]): number | null {
  const [long, short] = [named(contenders, LONG_NAME)?.batchMs, named(contenders, SHORT_NAME)?.batchMs];
  return long && short ? long / LONG / (short / SHORT) : null;
}

/** A row per contender: what its batch cost beyond its time, from ScaleFigures. */
function scaleTable(contenders: readonly ContenderSummary[]): PerImageTable {
  const counts = new Map([[SHORT_NAME, SHORT], [LONG_NAME, LONG], [PHONE_NAME, PHONE]]);
  const mb = (bytes: number) => `${Math.round(bytes / 1e6).toLocaleString('en')} MB`;
  return {
    note: "Each batch's intake, previews, longest task, storage and zip (first run; from the folder handed to the page until every file is listed, and until every card in the page has its preview):",
    columns: ['contender', 'photos', 'time a photo', 'listed', 'long tasks until listed (count / longest)', 'previews in the page', 'previews made', 'longest task, intake to zip', 'storage used after', 'zip', 'zip entries'],
    rows: contenders.flatMap((c) => {
      const count = counts.get(c.name);
      if (!c.scale || !count || c.batchMs === null) return [];
      const s = c.scale;
      return [[c.name, String(count), `${(c.batchMs / count / 1000).toFixed(2)} s`, `${(s.intakeMs / 1000).toFixed(1)} s`, `${s.intakeLongTasks.count} / ${s.intakeLongTasks.longestMs} ms`, `${(s.previewsMs / 1000).toFixed(1)} s`, String(s.previews), `${s.longestTaskMs} ms`, s.storageMb === null ? '–' : `${s.storageMb.toLocaleString('en')} MB`, mb(s.zipBytes), String(s.zipEntries)]];
    }),
  };
}

/** A folder of `count` 12 MP photos, iPhone-style HEICs and JPEGs in turn, made from `photos` (the corpus's photographs by default). */
export async function scaleFolder(count: number, photos?: string[]) {
  const naturals = photos ?? corpusPhotographs();
  const sets = [await iphoneHeicSet(8, naturals), await photoSet(12, 4000, 3000, naturals)];
  return photoFolder(count, sets, `${count.toLocaleString('en')} × 12 MP, iPhone-style HEIC and JPEG in turn`);
}

/**
 * A whole phone's worth of photos (issue 63): a folder of 12 MP iPhone-style HEICs and 12 MP JPEGs made from the
 * corpus's photographs, → JPG with the default settings on a 4 GB device, 50 and 1,000 of them, and 100 on a phone's
 * CPU (4×) with taps. The long batch must cost what the short one did a photo, in time and memory, and its intake
 * must be quick and leave the page responsive.
 */
export const scale = batchScenario({
  id: 'scale',
  runs: 1,
  inputs: ({ photos }) => scaleFolder(LONG, photos),
  inputsNote: "a folder of iPhone-style HEICs (bench heic scenario's) and 12 MP JPEGs, both made from the conformance corpus's photographs, as links to the same bytes",
  title: () => `A folder of ${SHORT} and of ${LONG.toLocaleString('en')} photos (12 MP HEIC and JPEG) → JPG, default settings, a 4 GB device; ${PHONE} on a phone`,
  contenders: (inputs) => {
    // The long folder's first 20 (every photo of both sets) in turn, as many times as it takes.
    const first = { name: '', paths: inputs.paths.slice(0, 20), references: inputs.references?.slice(0, 20) };
    const short = photoFolder(SHORT, [first], `${SHORT} of them`);
    const onPhone = photoFolder(PHONE, [first], `${PHONE} of them`);
    // photoFolder's own folder, which holds the long batch's photos and nothing else.
    const folder = dirname(inputs.paths[0]!);
    return [
      { name: SHORT_NAME, inputs: short, once: () => runApp(short.paths, SETTINGS, { deviceMemoryGb: DEVICE_MEMORY_GB, folder: short.folder }) },
      { name: LONG_NAME, inputs, once: () => runApp(inputs.paths, SETTINGS, { deviceMemoryGb: DEVICE_MEMORY_GB, folder }) },
      { name: PHONE_NAME, inputs: onPhone, once: () => runApp(onPhone.paths, SETTINGS, { phone: { slowdown: 4 } }) },
    ];
  },
  perImage: (contenders) => scaleTable(contenders),
  goals: [
    { label: `peak memory over the idle page, ${LONG} ÷ ${SHORT} photos`, max: 1.25, value: (c) => ratio(named(c, LONG_NAME), named(c, SHORT_NAME), (x) => x.overIdleMb) },
    { label: `time a photo, ${LONG} ÷ ${SHORT} photos`, max: 1.15, value: perPhotoRatio },
    {
      label: `intake of ${LONG} photos, until every one is listed (s)`,
      max: 5,
      value: (c) => {
        const intakeMs = named(c, LONG_NAME)?.scale?.intakeMs;
        return intakeMs === undefined ? null : intakeMs / 1000;
      },
    },
    { label: `long tasks in the intake of ${LONG} photos, until listed`, max: 0, value: (c) => named(c, LONG_NAME)?.scale?.intakeLongTasks.count ?? null },
    { label: `longest task on the page, ${LONG} photos, intake to zip (ms)`, max: 100, value: (c) => named(c, LONG_NAME)?.scale?.longestTaskMs ?? null },
    { label: `slowest tap during the ${PHONE}-photo batch at 4× (ms)`, max: 100, value: (c) => named(c, PHONE_NAME)?.taps?.slowestMs ?? null },
    // Chrome's reading of the same taps (the slowest one in every 50 set aside): a batch of 100 has 150 or more.
    { label: `taps during the ${PHONE}-photo batch at 4×, as INP reads them (ms)`, max: 100, value: (c) => named(c, PHONE_NAME)?.taps?.inpMs ?? null },
  ],
});
