import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The corpus as build.ts leaves it and corpus.spec.ts reads it. */

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '.generated');
export const MANIFEST = join(CORPUS_DIR, 'manifest.json');

/** `npm test` builds and converts the subset; `CORPUS=full npm run test:corpus` everything. */
export type CorpusMode = 'subset' | 'full';
export const corpusMode = (): CorpusMode => (process.env.CORPUS === 'full' ? 'full' : 'subset');

export interface CorpusFile {
  /** Where it is, relative to CORPUS_DIR. */
  path: string;
  /** Its file name, unique in the corpus: what its card shows. */
  name: string;
  /** The package and path it came from, or how it was made. */
  source: string;
  bytes: number;
  /**
   * converts: sharp decodes it whole, so the app must convert it (width × height is what a viewer shows);
   * damaged: sharp stops in it (a truncated file), so the app may refuse it or convert what it can, but says which;
   * too small: under 100 bytes, which the spec refuses whatever the bytes are.
   */
  expect: 'converts' | 'damaged' | 'too small';
  width?: number;
  height?: number;
  /**
   * What the picture looks like, upright and flattened onto white, from that decoder: a 16 × 16 RGB thumbnail, base64
   * (tests/fixtures/oriented.ts shownThumbnail). An output at the original size is compared with it.
   */
  thumbnail?: string;
}

export interface Manifest {
  recipe: string;
  mode: CorpusMode;
  files: CorpusFile[];
}
