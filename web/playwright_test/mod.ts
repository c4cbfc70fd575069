/**
 * `@sdk/web/playwright-test`: the SDK inside Playwright Test (issue 16). {@link sdkFixtures}
 * gives each test an agent on its `page` (and the agent's methods as fixtures) with a report
 * named after the test; {@link SdkReporter} (also this module's default export, so the config
 * can name the module as a reporter) merges a run's reports into one, and
 * {@link mergeShardReports} combines the shards of a `--shard i/n` run. `@playwright/test` is an
 * optional peer: only its types are used here.
 *
 * @example playwright.config.ts
 * ```ts ignore
 * import { defineConfig } from "@playwright/test";
 *
 * export default defineConfig({
 *   workers: 2,
 *   reporter: [["list"], ["@sdk/web/playwright-test", { name: "nightly" }]],
 * });
 * ```
 *
 * @module
 */

import { SdkReporter } from "./reporter.ts";

export {
  reportNameOf,
  SDK_REPORT_ATTACHMENT,
  type SdkFixtureDefinitions,
  type SdkFixtureOptions,
  type SdkFixtures,
  sdkFixtures,
} from "./fixtures.ts";
export {
  mergeShardReports,
  SdkReporter,
  type SdkReporterOptions,
  type ShardManifest,
} from "./reporter.ts";

export type {
  PlaywrightFullConfig,
  PlaywrightReporter,
  PlaywrightTestArgs,
  PlaywrightTestCase,
  PlaywrightTestFixture,
  PlaywrightTestInfo,
  PlaywrightTestResult,
  PlaywrightWorkerArgs,
} from "./types.ts";

export default SdkReporter;
