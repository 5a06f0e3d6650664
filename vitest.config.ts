import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files whose tests run codecs on many or large pictures, 7–20 s each where the rest take under 3. A clean clone
 * has no timings to order the files by (vitest then runs the largest files first), so one of these could start
 * last and keep a core waiting: upright.test.ts did, 6 s after every other file had ended.
 */
const LONGEST_FILES = ['convert.test.ts', 'realHeaders.test.ts', 'upright.test.ts', 'jxl.test.ts', 'storedZip.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = ({ moduleId }: TestSpecification) => {
      const at = LONGEST_FILES.findIndex((name) => moduleId.endsWith(`/${name}`));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/sql/**/*.test.ts'],
    environment: 'node',
    // One generous limit a test (vitest's own is 5 s): a test that builds a 7 MB file took 5.0 s beside a busy process.
    // What a test waits for is state (support/waitUntil.ts), so only a hang reaches it.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every core: vitest's default leaves one free, which on a 2-core machine is one file at a time. Two at a time took
    // the suite from 78 to 54 s on this 2-core host (docs/testing.md).
    maxWorkers: availableParallelism(),
    // A worker's test files share their imports instead of loading them again for each file: 12.8 s of the suite's
    // 53 went to imports, and it took 38.5 s so (docs/testing.md). Every file sets up what it uses; the suite passes
    // with its files in any order (`--sequence.shuffle.files`).
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
