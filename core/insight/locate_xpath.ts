/**
 * Locating by the `xpath` option (spec 4.2): tried before the model, through the device's
 * `locateByXpath` capability. Found: no model call; the report step says so and marks the element
 * on a screenshot like a model locate. Not found, or a device without the capability: the step
 * notes that the model locates by the description instead.
 *
 * @module
 */

import type { CallSession } from "../session/session.ts";
import { captureFor } from "../session/session.ts";
import type { LocatedElement, Rect } from "../device/types.ts";
import type { ReportStep } from "../report/types.ts";
import { type LocateResult, markTarget } from "./locate.ts";

/**
 * Locates the element `xpath` selects. `description` (the call's locate prompt, when it has one)
 * names the element in the result.
 *
 * @returns the element, or `undefined` when no visible element matches or the device cannot
 * locate by xpath (the caller falls back to the model).
 * @throws {TypeError} from the device when the expression is invalid.
 */
export async function locateByXpath(
  s: CallSession,
  xpath: string,
  description: string | undefined,
): Promise<LocateResult | undefined> {
  const step = s.recorder.begin("Locate", `Locate by xpath: ${xpath}`);
  try {
    const find = s.device.locateByXpath?.bind(s.device);
    const element = find ? await find(xpath) : undefined;
    if (!element) {
      step.thought = find
        ? "No visible element matches the xpath; locating by the description with the model."
        : "This device cannot locate by xpath; locating by the description with the model.";
      s.recorder.end(step);
      return undefined;
    }
    const found = await elementOnScreen(s, { ...element, description: description ?? xpath }, step);
    step.thought = "Located by xpath, without a model call.";
    s.recorder.end(step);
    return found;
  } catch (e) {
    s.recorder.end(step, e);
    throw e;
  }
}

/**
 * Turns an element the device found itself (by xpath, without a model) into a locate result on
 * the screen captured now, after the device scrolled it into view; marks it on `step`.
 */
export async function elementOnScreen(
  s: CallSession,
  element: LocatedElement,
  step: ReportStep,
): Promise<LocateResult> {
  const screen = await captureFor(s, "default");
  const sx = screen.image.contentWidth / screen.logical.width;
  const sy = screen.image.contentHeight / screen.logical.height;
  const r = element.rect;
  const imageRect: Rect = {
    left: r.left * sx,
    top: r.top * sy,
    width: r.width * sx,
    height: r.height * sy,
  };
  Object.assign(step, {
    screenshot: screen.screenshotId,
    ...markTarget(imageRect),
    // The click point: the middle of the element's visible part.
    point: [Math.round(element.center[0] * sx), Math.round(element.center[1] * sy)],
  });
  return { element, imageRect, screen };
}
