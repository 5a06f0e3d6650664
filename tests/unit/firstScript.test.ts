import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The page's first script as the build made it (dist/.vite/manifest.json): `npm test` builds before the unit tests;
 * alone, run `npm run build` first. The page is painted from index.html before any script; src/boot.ts only keeps
 * early files and then starts the app, so nothing else may ride in its chunk (a keeper once pulled the file
 * validation and the worker bridge in with one import).
 */
interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

function entry(): Chunk {
  const path = join(import.meta.dirname, '../../dist/.vite/manifest.json');
  if (!existsSync(path)) throw new Error('the build manifest is missing: run `npm run build` first (npm test does).');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Chunk>;
  return manifest['index.html']!;
}

describe("the page's first script (src/boot.ts)", () => {
  it('imports nothing and starts only the app', () => {
    const boot = entry();
    expect(boot.imports ?? []).toEqual([]);
    expect(boot.dynamicImports).toEqual(['src/main.tsx']);
  });
});
