/**
 * Playwright Test fixtures (issue 16): each test gets an agent bound to its own `page`, and the
 * agent's methods as fixtures (`aiTap`, `aiQuery`, ...), with one report per test named after it.
 * The report's path is attached to the test result (attachment `sdk-report`, its body the path), where
 * {@link SdkReporter} finds it to merge the run's reports.
 *
 * Only types come from `@playwright/test`: the user's own `test` is extended, so this module
 * works with the Playwright Test version they run (an optional peer).
 *
 * @module
 */

import type { Page } from "@playwright/test";
import type {
  PlaywrightTestArgs,
  PlaywrightTestFixture as TestFixture,
  PlaywrightTestInfo as TestInfo,
  PlaywrightWorkerArgs,
} from "./types.ts";
import { DriverBPageAgent, type WebPageAgentOptions } from "../agent/page_agent.ts";

/** Name of the test-result attachment that holds a test's report path. */
export const SDK_REPORT_ATTACHMENT = "sdk-report";

/** The fixtures {@link sdkFixtures} adds to a Playwright `test`. */
export interface SdkFixtures {
  /** The test's agent, on its `page`; destroyed (report finalized) after the test. */
  agent: DriverBPageAgent;
  /** `agent.aiAct` (spec 4.2). */
  ai: DriverBPageAgent["ai"];
  /** `agent.aiAct`. */
  aiAct: DriverBPageAgent["aiAct"];
  /** `agent.aiTap`. */
  aiTap: DriverBPageAgent["aiTap"];
  /** `agent.aiHover`. */
  aiHover: DriverBPageAgent["aiHover"];
  /** `agent.aiDoubleClick`. */
  aiDoubleClick: DriverBPageAgent["aiDoubleClick"];
  /** `agent.aiInput`. */
  aiInput: DriverBPageAgent["aiInput"];
  /** `agent.aiKeyboardPress`. */
  aiKeyboardPress: DriverBPageAgent["aiKeyboardPress"];
  /** `agent.aiScroll`. */
  aiScroll: DriverBPageAgent["aiScroll"];
  /** `agent.aiLocate`. */
  aiLocate: DriverBPageAgent["aiLocate"];
  /** `agent.aiQuery`. */
  aiQuery: DriverBPageAgent["aiQuery"];
  /** `agent.aiBoolean`. */
  aiBoolean: DriverBPageAgent["aiBoolean"];
  /** `agent.aiNumber`. */
  aiNumber: DriverBPageAgent["aiNumber"];
  /** `agent.aiString`. */
  aiString: DriverBPageAgent["aiString"];
  /** `agent.aiAsk`. */
  aiAsk: DriverBPageAgent["aiAsk"];
  /** `agent.aiAssert`. */
  aiAssert: DriverBPageAgent["aiAssert"];
  /** `agent.aiWaitFor`. */
  aiWaitFor: DriverBPageAgent["aiWaitFor"];
}

/** The fixture definitions to pass to `test.extend<SdkFixtures>(...)`. */
export type SdkFixtureDefinitions = {
  [K in keyof SdkFixtures]: TestFixture<
    SdkFixtures[K],
    SdkFixtures & PlaywrightTestArgs & PlaywrightWorkerArgs
  >;
};

/** Options of {@link sdkFixtures}: agent options for every test's agent. */
export type SdkFixtureOptions = Omit<WebPageAgentOptions, "reportFileName">;

type MethodName = Exclude<keyof SdkFixtures, "agent">;

const METHODS: readonly MethodName[] = [
  "ai",
  "aiAct",
  "aiTap",
  "aiHover",
  "aiDoubleClick",
  "aiInput",
  "aiKeyboardPress",
  "aiScroll",
  "aiLocate",
  "aiQuery",
  "aiBoolean",
  "aiNumber",
  "aiString",
  "aiAsk",
  "aiAssert",
  "aiWaitFor",
];

/**
 * A test's report name: its title path (file, describe blocks, title), then the retry, so
 * parallel workers, repeated titles in other files and retries never share a report file.
 */
export function reportNameOf(testInfo: TestInfo): string {
  const parts = [...testInfo.titlePath, ...(testInfo.retry ? [`retry${testInfo.retry}`] : [])];
  const name = parts.join("-").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
  return `${name.slice(0, 120)}-${testInfo.testId}`;
}

/**
 * Fixtures for Playwright Test: an `agent` per test on its `page`, and its methods.
 *
 * @param options agent options for every test (model, cache, `waitAfterAction`, ...); the report
 * is named after the test.
 * @returns fixture definitions for `test.extend<SdkFixtures>(...)`.
 *
 * @example
 * ```ts ignore
 * import { expect, test as base } from "@playwright/test";
 * import { type SdkFixtures, sdkFixtures } from "@sdk/web/playwright-test";
 *
 * const test = base.extend<SdkFixtures>(sdkFixtures({ waitAfterAction: 500 }));
 *
 * test("adds a todo", async ({ page, aiInput, aiTap, aiQuery }) => {
 *   await page.goto("https://todomvc.com/examples/react/dist/");
 *   await aiInput("the new todo field", { value: "Buy milk" });
 *   await aiTap("the Add button");
 *   expect(await aiQuery<string[]>("the todo titles, as a list of strings")).toContain("Buy milk");
 * });
 * ```
 */
export function sdkFixtures(options: SdkFixtureOptions = {}): SdkFixtureDefinitions {
  const agent = async (
    { page }: { page: Page },
    use: (agent: DriverBPageAgent) => Promise<void>,
    testInfo: TestInfo,
  ): Promise<void> => {
    const created = new DriverBPageAgent(page, {
      autoPrintReportMsg: false,
      ...options,
      reportFileName: reportNameOf(testInfo),
    });
    try {
      await use(created);
    } finally {
      await created.destroy();
      const report = created.reportFile;
      if (report) {
        // The path, not the file: Playwright copies attached files into test-results/, which
        // the next run (another shard) empties before the reports are merged.
        await testInfo.attach(SDK_REPORT_ATTACHMENT, { body: report, contentType: "text/plain" });
      }
    }
  };
  const definitions: Record<string, unknown> = { agent };
  for (const name of METHODS) {
    definitions[name] = async (
      { agent }: { agent: DriverBPageAgent },
      use: (method: unknown) => Promise<void>,
    ) => {
      await use((agent[name] as (...args: unknown[]) => unknown).bind(agent));
    };
  }
  return definitions as SdkFixtureDefinitions;
}
