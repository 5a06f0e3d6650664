import { APP_URL } from '../app-page.ts';
import { initialJavaScript, runLighthouse, type LighthouseFigures } from '../coldstart.ts';
import type { Scenario } from './scenario.ts';

/** First paint and the JavaScript before it: Lighthouse mobile, the worst of the runs by performance score. */
export const coldstart: Scenario = {
  id: 'coldstart',
  async run({ runs }) {
    const scripts = initialJavaScript();
    const lighthouse: LighthouseFigures[] = [];
    for (let round = 1; round <= runs; round++) {
      process.stdout.write(`  Lighthouse mobile: run ${round}/${runs}… `);
      const figures = await runLighthouse(APP_URL);
      process.stdout.write(`performance ${figures.scores.performance}, LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms\n`);
      lighthouse.push(figures);
    }
    const worst = lighthouse.sort((a, b) => a.scores.performance! - b.scores.performance!)[0]!;
    return [{ kind: 'coldstart', id: 'coldstart', title: 'Cold start: the JavaScript before the page runs, and Lighthouse mobile (slow 4G, CPU 4× slower)', scripts, lighthouse: worst }];
  },
};
