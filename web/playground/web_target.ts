/**
 * The playground's web target: a page opened at a URL in the system Chromium (found as `sdk run`
 * finds it, with the same flags), driven by a DriverB page agent.
 *
 * @module
 */

import { DriverBPageAgent, type WebPageAgentOptions } from "../agent/page_agent.ts";
import { DEFAULT_VIEWPORT } from "../chromium/launch.ts";
import type { PlaygroundTarget } from "./target.ts";
import { openUrl } from "../page/navigation.ts";

/** What {@link launchPageTarget} reads of the playground's options. */
export interface PageTargetOptions {
  /** Without a window. Default `true`. */
  headless?: boolean;
  /** Viewport, CSS pixels. Default 1280 x 800. */
  viewport?: { width: number; height: number };
  /** Chromium's sandbox, as `launchChromium` takes it. Default: on unless root. */
  sandbox?: boolean;
  /** Receives the warning of a sandbox turned off as root. */
  onWarning?: (message: string) => void;
}

/**
 * Launches Chromium, opens `url` in a new page and waits for its `load` event.
 *
 * @returns a target whose `close()` closes that browser.
 * @throws {MissingDependencyError} when no Chromium is found.
 * @throws {NavigationError} when the page does not open (the browser is closed).
 */
export async function launchPageTarget(
  url: string,
  options: PageTargetOptions = {},
): Promise<PlaygroundTarget> {
  // Loaded here, not at the top: playwright-core is an optional peer of @sdk/web, and a user of
  // DriverA alone imports this package without it.
  const { launchChromium } = await import("../chromium/launch.ts");
  // The playground closes the browser itself on Ctrl+C, after the agent's report is final;
  // Playwright's own handlers would end the process (exit code 130) before that.
  const browser = await launchChromium({
    headless: options.headless ?? true,
    handleSignals: false,
    sandbox: options.sandbox,
    onWarning: options.onWarning,
  });
  try {
    const context = await browser.newContext({ viewport: options.viewport ?? DEFAULT_VIEWPORT });
    const page = await context.newPage();
    await openUrl(page, url);
    return {
      // The playground passes the web options it was given (the seam names the shared ones).
      createAgent: (agentOptions: WebPageAgentOptions) => new DriverBPageAgent(page, agentOptions),
      close: () => browser.close(),
    };
  } catch (e) {
    await browser.close();
    throw e;
  }
}
