/**
 * What a web script's `web` section asks of its browser beyond a page: a browser of its own
 * (attached over CDP with `cdpEndpoint`, or launched with `chromeArgs` or `headless`), and the
 * agent's log written as JSON (`unstableLogContent`). Files without these share the run's
 * browser.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import type { ScriptWebTarget } from "@sdk/core/script";
import { NavigationError, runDir, writeFileAtomic } from "@sdk/core";
import type { DriverBBrowser as Browser } from "@sdk/web";
import { launchChromium } from "@sdk/web/chromium";

/** The keys of a `web` section that give the file a browser of its own. */
const OWN_BROWSER_KEYS = ["cdpEndpoint", "chromeArgs", "headless"] as const;

/** Whether a file's `web` section asks for a browser of its own instead of the run's. */
export function needsOwnBrowser(web: Partial<ScriptWebTarget>): boolean {
  return OWN_BROWSER_KEYS.some((key) => web[key] !== undefined);
}

/** A browser a file opened for itself, and how it lets go of it. */
export interface OwnBrowser {
  /** The browser the file's context opens in. */
  browser: Browser;
  /**
   * Closes a launched browser; for an attached one (`cdpEndpoint`) only drops the connection:
   * the browser is the user's and stays open (the file's context is closed before).
   */
  close(): Promise<void>;
}

/**
 * Opens the browser of a file whose `web` section asks for one ({@link needsOwnBrowser}):
 * attached at `cdpEndpoint`, or a Chromium launched with `chromeArgs` after the SDK's own
 * arguments, without a window unless `headless: false` (default: as the run's, `--headed`).
 *
 * @param headed whether the run's browsers have a window (`sdk run --headed`).
 * @throws {NavigationError} when no browser answers at `cdpEndpoint`.
 * @throws {MissingDependencyError} from `launchChromium` when there is no Chromium.
 */
export async function openOwnBrowser(
  web: Partial<ScriptWebTarget>,
  headed: boolean,
): Promise<OwnBrowser> {
  if (web.cdpEndpoint) {
    const endpoint = web.cdpEndpoint;
    const { chromium } = await import("playwright-core");
    let browser: Browser;
    try {
      browser = await chromium.connectOverCDP(endpoint);
    } catch (e) {
      throw new NavigationError(
        `no browser answered at cdpEndpoint ${endpoint}: start it with ` +
          `--remote-debugging-port=<port> and give http://127.0.0.1:<port> (or its ws:// address)`,
        { url: endpoint, reason: "cdp-connect" },
        { cause: e },
      );
    }
    // Playwright's close() of a browser it attached to disconnects, leaving the browser open.
    return { browser, close: () => browser.close() };
  }
  const browser = await launchChromium({
    headless: web.headless ?? !headed,
    handleSignals: false,
    ...(web.chromeArgs && { args: web.chromeArgs }),
  });
  return { browser, close: () => browser.close() };
}

/**
 * Writes an agent's log (`_unstableLogContent()`) where `unstableLogContent` says: a path,
 * relative to the script's folder, or `true` for `<run dir>/output/unstableLogContent.json`
 * (written whole or not at all).
 *
 * @returns the absolute path written.
 */
export async function writeLogContent(
  setting: true | string,
  scriptFile: string,
  content: unknown,
): Promise<string> {
  const path = setting === true
    ? join(await runDir(), "output", "unstableLogContent.json")
    : resolve(dirname(scriptFile), setting);
  await writeFileAtomic(path, JSON.stringify(content, null, 2) + "\n");
  return path;
}
