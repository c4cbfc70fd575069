/**
 * What the web page device reads from the page's DOM (private to `@sdk/web`): the element an
 * xpath selects, the xpaths of the element at a point, and the elements as text for
 * `domIncluded`. The page functions themselves are in `_xpath_script.ts`, `_xpath_at_script.ts`
 * and `_dom_scripts.ts`.
 *
 * @module
 */

import type {
  ElementsDescriptionOptions,
  LocatedElement,
  Point,
  TargetIdentity,
} from "../_core.ts";
import { domTargetsAt } from "../_core.ts";
import type { PageDriver } from "./page_driver.ts";
import { describePageElements } from "./_dom_scripts.ts";
import { findByXpath } from "./_xpath_script.ts";
import { xpathsAtPoint } from "./_xpath_at_script.ts";
import { SdkTypeError } from "../_core.ts";

// Bound on the element description sent with domIncluded: about 15k tokens.
const ELEMENTS_DESCRIPTION_MAX_CHARS = 60_000;

/**
 * The first rendered element `xpath` selects (`WebPageDevice.locateByXpath`), or `undefined`.
 *
 * @throws {SdkTypeError} naming the expression when it is invalid or does not select nodes.
 */
export async function locateByXpath(
  driver: PageDriver,
  xpath: string,
): Promise<LocatedElement | undefined> {
  const hit = await driver.evaluate(findByXpath, xpath);
  if (hit && "error" in hit) {
    throw new SdkTypeError(`Invalid xpath ${JSON.stringify(xpath)}: ${hit.error}`);
  }
  if (!hit) return undefined;
  return {
    description: `xpath ${xpath}`,
    rect: hit.rect,
    center: [Math.round(hit.center[0]), Math.round(hit.center[1])],
  };
}

/** XPaths of the element at `point` (`WebPageDevice.xpathsAt`). */
export async function xpathsAt(driver: PageDriver, point: Point): Promise<string[]> {
  return await driver.evaluate(xpathsAtPoint, point);
}

/** What is at each point (`WebPageDevice.targetsAt`), in one evaluation. */
export async function targetsAt(
  driver: PageDriver,
  points: readonly Point[],
): Promise<(TargetIdentity | undefined)[]> {
  // Serialized as JSON: `undefined` entries come back as null.
  const found = await driver.evaluate(domTargetsAt, points);
  return found.map((t) => t ?? undefined);
}

/** The page's elements as text (`WebPageDevice.getElementsDescription`). */
export function elementsDescription(
  driver: PageDriver,
  options: ElementsDescriptionOptions,
): Promise<string> {
  return driver.evaluate(describePageElements, {
    visibleOnly: options.visibleOnly === true,
    maxChars: ELEMENTS_DESCRIPTION_MAX_CHARS,
  });
}
