import { photoSet } from '../inputs.ts';
import { runApp } from '../runners.ts';
import type { Scenario, TargetRow } from './scenario.ts';

/** Target-size accuracy: one 12 MP photo → WebP at four targets; each must land within 5% below its target. */
export const target: Scenario = {
  id: 'target',
  async run({ photos }) {
    const inputs = await photoSet(1, 4000, 3000, photos);
    const rows: TargetRow[] = [];
    for (const targetKb of [150, 400, 1000, 2500]) {
      const result = await runApp(inputs.paths, { format: 'WebP', quality: 80, compression: true, targetKb }).catch((error: Error) => error);
      if (result instanceof Error) {
        // A target below what the lowest quality gives fails the job with the spec's message: a row, not the bench's end.
        rows.push({ targetKb, sizeKb: null, ratio: null, encodes: null, failure: result.message });
        console.log(`  target ${targetKb} KB → ${result.message}`);
        continue;
      }
      const sizeKb = result.outputs[0]!.length / 1024;
      rows.push({ targetKb, sizeKb: Math.round(sizeKb), ratio: Math.round((sizeKb / targetKb) * 1000) / 1000, encodes: result.encodes?.[0] ?? 0, failure: null });
      console.log(`  target ${targetKb} KB → ${Math.round(sizeKb)} KB (${(sizeKb / targetKb).toFixed(3)}×) in ${result.encodes?.[0]} encodes`);
    }
    return [{ kind: 'target', id: 'target', title: 'Target-size accuracy (one 12 MP photo → WebP)', rows }];
  },
};
