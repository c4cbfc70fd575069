/**
 * Chromium for tests and the demo: the system browser as the command line finds and launches it
 * (web/chromium/launch.ts), and measuring elements in CSS pixels.
 *
 * @module
 */

import { after } from "./test.ts";
import { before } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TargetBox } from "../../core/testing/mod.ts";
import {
  CHROMIUM_ARGS as LAUNCH_ARGS,
  chromiumSandbox,
  launchChromium,
} from "../../web/chromium/launch.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "./static_server.ts";

/**
 * The flags of the browsers tests launch themselves (through puppeteer-core, or Playwright with a
 * profile): `launchChromium`'s, and `--no-sandbox` where it would turn the sandbox off (as root,
 * or with `SDK_CHROMIUM_NO_SANDBOX=1`), as it does.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  ...LAUNCH_ARGS,
  ...(chromiumSandbox().sandbox ? [] : ["--no-sandbox"]),
];

export {
  CHROMIUM_CANDIDATES,
  findChromium,
  launchChromium,
  type LaunchChromiumOptions,
} from "../../web/chromium/launch.ts";

/**
 * Measures an element's box in CSS pixels of the viewport, as a test model script wants it.
 * Waits up to `timeout` ms for the element to be visible.
 *
 * @param page the page.
 * @param selector a Playwright selector matching one element.
 * @param timeout how long to wait for it to be visible, ms. Default 5000.
 * @returns the element's box.
 * @throws {Error} naming the selector when the element is not visible in time.
 */
export async function measure(page: Page, selector: string, timeout = 5000): Promise<TargetBox> {
  const locator = page.locator(selector);
  try {
    await locator.waitFor({ state: "visible", timeout });
  } catch (error) {
    throw new Error(
      `measure('${selector}'): the element is not visible after ${timeout} ms: ${
        (error as Error).message.split("\n")[0]
      }`,
    );
  }
  const box = await locator.boundingBox({ timeout });
  if (!box) throw new Error(`measure('${selector}'): the element has no box (not visible)`);
  return { left: box.x, top: box.y, width: box.width, height: box.height };
}

/**
 * The boxes of elements of a fixture app page at 1280 x 800, measured in a Chromium of their own
 * (closed again), for test models that answer for a page they cannot see (`sdk run`'s).
 *
 * @param file the page, e.g. `"actions.html"`.
 * @param selectors one Playwright selector per element.
 * @returns the boxes, in the selectors' order.
 */
export async function measureFixture(file: string, selectors: string[]): Promise<TargetBox[]> {
  const browser = await launchChromium();
  const app = await serveStatic(FIXTURE_APP_DIR);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${app.url}${file}`);
    const boxes: TargetBox[] = [];
    for (const selector of selectors) boxes.push(await measure(page, selector));
    return boxes;
  } finally {
    await browser.close();
    await app.close();
  }
}

/** The browser and fixture app of a test file, from {@link useFixtureApp}. */
export interface FixtureApp {
  /** The headless Chromium, launched before the file's tests. */
  readonly browser: Browser;
  /** Base URL of the fixture app, ending in `/`. */
  readonly url: string;
}

/**
 * Registers `before` and `after` hooks that launch Chromium and serve the fixture app for the
 * calling test file, and close both at its end. Read the fields inside tests, not at load time.
 */
export function useFixtureApp(): FixtureApp {
  let browser: Browser | undefined;
  let app: StaticServer | undefined;
  before(async () => {
    browser = await launchChromium();
    app = await serveStatic(FIXTURE_APP_DIR);
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error("useFixtureApp(): the browser is ready only inside tests");
      return browser;
    },
    get url() {
      if (!app) throw new Error("useFixtureApp(): the app is ready only inside tests");
      return app.url;
    },
  };
}
