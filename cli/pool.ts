/**
 * Runs jobs with at most `concurrency` at a time, in order of the list.
 *
 * @module
 */

/**
 * Calls `run` for each item, at most `concurrency` at once, starting them in list order. When
 * `shouldStart()` turns false (a failure without `--continue-on-error`), no further item starts;
 * those not started are reported as `undefined` in the result.
 *
 * @returns one entry per item, in the items' order.
 */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  run: (item: T, index: number) => Promise<R>,
  shouldStart: () => boolean = () => true,
): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(items.length).fill(undefined);
  let next = 0;
  const worker = async () => {
    while (next < items.length && shouldStart()) {
      const index = next++;
      results[index] = await run(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
