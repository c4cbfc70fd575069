/**
 * Playwright Test's own types that the public signatures of `@sdk/web/playwright-test` take, under
 * names of their own, so that its API pages link them. They are `@playwright/test`'s types
 * unchanged.
 *
 * @module
 */

import type {
  PlaywrightTestArgs as TestArgs,
  PlaywrightWorkerArgs as WorkerArgs,
  TestInfo as Info,
} from "@playwright/test";
import type {
  FullConfig as Config,
  Reporter as TestReporter,
  TestCase as Case,
  TestResult as Result,
} from "@playwright/test/reporter";

/**
 * A fixture function as Playwright Test's `TestFixture<R, Args>` takes it: it gets the fixtures
 * it depends on, hands its value to `use` and cleans up after `use` resolves.
 */
export type PlaywrightTestFixture<R, Args extends object> = (
  args: Args,
  use: (value: R) => Promise<void>,
  testInfo: PlaywrightTestInfo,
) => Promise<void>;
/** Playwright Test's built-in test-scoped fixtures (`page`, `context`, `request`, ...). */
export type PlaywrightTestArgs = TestArgs;
/** Playwright Test's built-in worker-scoped fixtures (`browser`, `playwright`, ...). */
export type PlaywrightWorkerArgs = WorkerArgs;
/** Playwright Test's `TestInfo`: the running test's title path, id, retry and attachments. */
export type PlaywrightTestInfo = Info;
/** Playwright Test's `FullConfig` of a run, as a reporter receives it. */
export type PlaywrightFullConfig = Config;
/** Playwright Test's `Reporter` interface. */
export type PlaywrightReporter = TestReporter;
/** Playwright Test's `TestCase`, as a reporter receives it. */
export type PlaywrightTestCase = Case;
/** Playwright Test's `TestResult`, as a reporter receives it. */
export type PlaywrightTestResult = Result;
