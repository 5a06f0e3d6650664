/**
 * `run` over every item, at most `atOnce` at a time, the results in the items' order. Each start happens as an earlier
 * run ends, in that run's own task: 2000 files from a folder validated at once started 2000 header reads in one task
 * (each File's size and slice asks the disk on the page's thread: a 1.7 s long task); in turns, no task does more
 * than a few.
 */
export async function inTurns<T, R>(items: readonly T[], atOnce: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return results;
}
