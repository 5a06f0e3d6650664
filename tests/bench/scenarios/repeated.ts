import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { InputSet } from '../inputs.ts';

/** `count` files made of the photos of `inputs` under distinct names (the same bytes several times over). */
export function repeated(inputs: InputSet, count: number, name: string): InputSet {
  const dir = join(dirname(inputs.paths[0]!), '..', `${count}-of-${basename(dirname(inputs.paths[0]!))}`);
  mkdirSync(dir, { recursive: true });
  const paths = Array.from({ length: count }, (_, i) => {
    const path = join(dir, `photo-${String(i + 1).padStart(3, '0')}.jpg`);
    if (!existsSync(path)) copyFileSync(inputs.paths[i % inputs.paths.length]!, path);
    return path;
  });
  return { name, paths };
}
