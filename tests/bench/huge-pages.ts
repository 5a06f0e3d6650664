import { readFileSync, writeFileSync } from 'node:fs';

const SETTING = '/sys/kernel/mm/transparent_hugepage/enabled';

/** The kernel's transparent huge pages setting now ('always', 'madvise', 'never'), or null where it cannot be read. */
export function hugePagesSetting(): string | null {
  try {
    return readFileSync(SETTING, 'utf8').match(/\[(\w+)\]/)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Transparent huge pages for every process while the bench runs, where this user may set them (root), as `.ci/run`
 * does for the tests: on the PVM guest this project's machines are, a page fault goes through the hypervisor (12 µs a
 * 4 KB page, where a device's own takes well under one; docs/testing.md, "A slow host"), which charges work that
 * touches fresh memory often (Smart compression's decodes of each whole encode) many times what a phone or a laptop
 * pays. A 2 MB page is one fault where 4 KB pages take 512. Returns the setting the run had and a function that puts
 * back the one before.
 */
export function useHugePages(): { setting: string | null; restore: () => void } {
  const before = hugePagesSetting();
  if (before === null || before === 'always') return { setting: before, restore: () => {} };
  try {
    writeFileSync(SETTING, 'always');
  } catch {
    return { setting: before, restore: () => {} };
  }
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    writeFileSync(SETTING, before);
  };
  process.once('exit', restore);
  // A run stopped with Ctrl-C or killed ends without 'exit': put the setting back there too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      restore();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
  return { setting: hugePagesSetting(), restore };
}
