import { median } from '../../../src/lib/median.ts';
import { instrumentApp, readRecord, type AppRecord } from '../app-instrument.ts';
import { allJobsSettled, openIdleApp, openPage, prepareBatch, throttle } from '../app-page.ts';
import { longTaskFigures } from '../figures.ts';
import { photoSet } from '../inputs.ts';
import type { CompareRow, Scenario } from './scenario.ts';

const PHONE = { slowdown: 4 } as const;

/** One run: a photo converted (at full speed), then, with the page's CPU 4× slower, Compare tapped until both sides are drawn. */
async function openCompare(path: string): Promise<{ ms: number; longTasks: number; longestMs: number }> {
  const { page, close } = await openPage(PHONE);
  try {
    await page.addInitScript(instrumentApp);
    await openIdleApp(page);
    await prepareBatch(page, [path], { format: 'WebP', quality: 80, compression: true });
    await page.getByRole('button', { name: /^Convert 1 image/ }).tap();
    await allJobsSettled(page, 1);
    await throttle(page, PHONE);
    await page.getByRole('button', { name: /^Compare / }).tap();
    await page.waitForFunction(() => (window as unknown as { __bench: AppRecord }).__bench.comparedAt > 0, undefined, { timeout: 120_000, polling: 250 });
    const bench = await page.evaluate(readRecord<AppRecord>);
    const tasks = longTaskFigures(bench, bench.compareAt, bench.comparedAt);
    return { ms: bench.comparedAt - bench.compareAt, longTasks: tasks.count, longestMs: tasks.longestMs };
  } finally {
    await close();
  }
}

/** Compare on a phone: from the tap to both the original and the output drawn, a 12 MP and a 24 MP photo, the page's CPU 4× slower. */
export const compareView: Scenario = {
  id: 'compare',
  async run({ runs, photos }) {
    const rows: CompareRow[] = [];
    for (const [label, width, height] of [['12 MP', 4000, 3000], ['24 MP', 6000, 4000]] as const) {
      const inputs = await photoSet(1, width, height, photos);
      const results = [];
      for (let run = 1; run <= runs; run++) {
        const result = await openCompare(inputs.paths[0]!);
        console.log(`  ${label}, run ${run}/${runs}… ${Math.round(result.ms)} ms, ${result.longTasks} long tasks`);
        results.push(result);
      }
      rows.push({
        photo: label,
        openMs: Math.round(median(results.map((r) => r.ms))),
        worstMs: Math.round(Math.max(...results.map((r) => r.ms))),
        longTasks: Math.max(...results.map((r) => r.longTasks)),
        longestMs: Math.max(...results.map((r) => r.longestMs)),
      });
    }
    return [{ kind: 'compare', id: 'compare', title: 'Compare on a phone: tap to both images drawn, the page’s CPU 4× slower (390 × 844)', rows }];
  },
};
