import metricUrl from './ssimulacra2.wasm?url';
import { LOOK_GRID, LOOK_TILE } from '../../core/look.ts';
import { compileWasm, once } from '../once.ts';
import { ssimulacra2Metric, type Ssimulacra2 } from './metric.ts';

/** The metric in this worker, started on first use (32 KB of WebAssembly, precached with the app), ready for the view. */
export const ssimulacra2 = once((): Promise<Ssimulacra2> => compileWasm(metricUrl).then((module) => ssimulacra2Metric(module, LOOK_GRID * LOOK_TILE)));
