import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { runPool } from "./pool.ts";

test("runPool() keeps at most N jobs running and returns results in item order", async () => {
  let running = 0, peak = 0;
  const results = await runPool([30, 5, 20, 1, 10], 2, async (ms) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, ms));
    running--;
    return ms * 2;
  });
  assert.deepEqual(results, [60, 10, 40, 2, 20]);
  assert.equal(peak, 2);
});

test("runPool() starts nothing more once shouldStart() is false", async () => {
  let stop = false;
  const started: number[] = [];
  const results = await runPool([1, 2, 3, 4], 1, (n) => {
    started.push(n);
    if (n === 2) stop = true;
    return Promise.resolve(n);
  }, () => !stop);
  assert.deepEqual(started, [1, 2]);
  assert.deepEqual(results, [1, 2, undefined, undefined]);
});
