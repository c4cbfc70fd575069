/**
 * The project's `test`: node:test's, with a time limit on every test (issue 24), so a test that
 * hangs fails by itself, naming the test, instead of stalling the run until CI's own limit. Every
 * test file imports `test` from here; `scripts/check_architecture.ts` refuses a test file that
 * imports it from `node:test`.
 *
 * A test that needs longer says so with `{ timeout: ms }`, as with node:test.
 *
 * @module
 */

import { test as nodeTest, type TestContext } from "node:test";

/** The time limit of a test that names none, ms: far above what any test of the suite takes. */
export const DEFAULT_TEST_TIMEOUT_MS = 300_000;

/** The options of node:test's `test` the suite uses. */
export interface TestOptions {
  /** Time limit, ms. Default {@link DEFAULT_TEST_TIMEOUT_MS}. */
  timeout?: number;
  /** Skips the test (with a reason). */
  skip?: boolean | string;
  /** Marks the test as not done yet. */
  todo?: boolean | string;
}

/** A test body. */
export type TestFn = (t: TestContext) => unknown;

/**
 * Declares a test, as node:test's `test`, with {@link DEFAULT_TEST_TIMEOUT_MS} unless `options`
 * give a `timeout`.
 *
 * @param name what the test checks.
 * @param optionsOrFn node:test's options (`timeout`, `skip`, ...) or the test itself.
 * @param fn the test, when options are given.
 * @returns what node:test's `test` returns.
 */
export function test(
  name: string,
  optionsOrFn: TestOptions | TestFn,
  fn?: TestFn,
): Promise<void> {
  const [options, body] = typeof optionsOrFn === "function"
    ? [{}, optionsOrFn]
    : [optionsOrFn, fn!];
  return nodeTest(
    name,
    { timeout: DEFAULT_TEST_TIMEOUT_MS, ...options },
    body as (t: TestContext) => void | Promise<void>,
  );
}
