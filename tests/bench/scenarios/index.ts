import { avif, avifLarge } from './avif';
import { coldstart } from './coldstart';
import { compareView } from './compareView';
import { jpeg } from './jpeg';
import { lowmem } from './lowmem';
import { many } from './many';
import { memory } from './memory';
import { phone } from './phone';
import { resize } from './resize';
import { smart } from './smart';
import type { Scenario } from './scenario';
import { target } from './target';
import { webp } from './webp';

/** Every scenario, in the order `npm run bench` runs them and the report lists them. */
export const SCENARIOS: readonly Scenario[] = [coldstart, webp, jpeg, avif, avifLarge, memory, phone, lowmem, resize, many, target, smart, compareView];
