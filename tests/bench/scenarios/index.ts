import { avif, avifLarge } from './avif.ts';
import { coldstart } from './coldstart.ts';
import { compareView } from './compareView.ts';
import { heic } from './heic.ts';
import { jpeg } from './jpeg.ts';
import { jxl } from './jxl.ts';
import { lowmem } from './lowmem.ts';
import { many } from './many.ts';
import { memory } from './memory.ts';
import { phone } from './phone.ts';
import { resize } from './resize.ts';
import { scale } from './scale.ts';
import { smart } from './smart.ts';
import type { Scenario } from './scenario.ts';
import { target } from './target.ts';
import { webp } from './webp.ts';

/** Every scenario, in the order `npm run bench` runs them and the report lists them. */
export const SCENARIOS: readonly Scenario[] = [coldstart, webp, jpeg, avif, avifLarge, jxl, heic, memory, phone, lowmem, resize, many, scale, target, smart, compareView];
