/**
 * The project's `test`: node:test's, with a time limit on every test (issue 24), so a test that
 * hangs fails by itself, naming the test, instead of stalling the run until CI's own limit. Every
 * test file imports `test` from here; `scripts/check_architecture.ts` refuses a test file that
 * imports it from `node:test`.
 *
 * A test that needs longer says so with `{ timeout: ms }`, as with node:test.
 *
 * What a file starts (browsers, servers, child processes) it closes in {@link after}, also taken
 * from here: node:test's `after` does not run under Deno when `--filter` skips a test of the file
 * (issue 41: a filtered run left its Chromium running), this one always runs.
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

/** How long one cleanup of {@link after} may take before the others run without it, ms. */
export const CLEANUP_TIMEOUT_MS = 60_000;

const cleanups: (() => unknown)[] = [];

/**
 * Registers `fn` to run once the file's tests are over, as node:test's `after` does, but also when
 * `--filter` skips some or all of them: Deno's node:test runs no `after` hook then, so a browser or
 * server the file started (at load time or in a `before` hook) would outlive the run. Cleanups run
 * in the order they were registered, each bounded by {@link CLEANUP_TIMEOUT_MS}, all of them even
 * when one fails; a failure or a timeout is reported as the file's error afterwards.
 *
 * Built on `Deno.test.afterAll`, which runs after the file's last test whatever the filter,
 * also when tests failed or timed out.
 *
 * @param fn the cleanup: closes what the file opened.
 */
export function after(fn: () => unknown): void {
  cleanups.push(fn);
}

// Registered when the file loads (hooks are registered before its tests run), once per file: each
// test file runs in a worker of its own, with its own copy of this module.
Deno.test.afterAll(runCleanups);

async function runCleanups(): Promise<void> {
  const failures: string[] = [];
  for (const [i, fn] of cleanups.splice(0).entries()) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(fn),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`still running after ${CLEANUP_TIMEOUT_MS} ms`)),
            CLEANUP_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      failures.push(`cleanup ${i + 1}: ${(error as Error)?.stack ?? error}`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (failures.length) throw new Error(`after(): ${failures.join("\n")}`);
}
