/**
 * Chromium for tests and the demo: the system browser as the command line finds and launches it
 * (web/cli/chromium.ts), and measuring elements in CSS pixels.
 *
 * @module
 */

import type { Page } from "playwright-core";
import type { TargetBox } from "../../core/testing/mod.ts";

export {
  CHROMIUM_ARGS,
  CHROMIUM_CANDIDATES,
  findChromium,
  launchChromium,
  type LaunchChromiumOptions,
} from "../../web/cli/chromium.ts";

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
