/**
 * Locating an element: one model call that answers a `bbox` in the family's convention, mapped to
 * the device's logical pixels.
 *
 * @module
 */

import type { CallSession } from "../agent/session.ts";
import { captureFor } from "../agent/session.ts";
import { toLocatedElement } from "../agent/screen.ts";
import type { Screen } from "../agent/screen.ts";
import type { LocatedElement, Rect } from "../device/types.ts";
import { LocateError } from "../errors.ts";
import { locateSystemPrompt, locateUserText } from "../model/prompts.ts";
import { modelStep, stringField } from "./ask.ts";

/** A located element with the screen it was found on. */
export interface LocateResult {
  /** The element in logical pixels. */
  element: LocatedElement;
  /** Its box in model-image pixels. */
  imageRect: Rect;
  /** The screen it was found on. */
  screen: Screen;
}

/** Marks a rect on a step: the box and its center, in image pixels. */
export function markTarget(rect: Rect): { target: Rect; point: [number, number] } {
  return {
    target: rect,
    point: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)],
  };
}

/**
 * Locates the element `description` names.
 *
 * @throws {LocateError} when the model says it is not on the screen.
 * @throws {ModelResponseError} when the answer cannot be used.
 */
export async function locateElement(
  s: CallSession,
  description: string,
  context: string | undefined,
  givenScreen?: Screen,
): Promise<LocateResult> {
  const screen = givenScreen ?? await captureFor(s, "default");
  const family = s.caller.config("default").family;
  return await modelStep(s, {
    kind: "Locate",
    title: `Locate: ${description}`,
    intent: "default",
    system: locateSystemPrompt(family),
    user: locateUserText(description, context, screen.image),
    screen,
  }, (answer, step) => {
    const bbox = answer.json.bbox;
    if (bbox === null || bbox === undefined) {
      throw new LocateError(
        `Element not found: "${description}". The model said: ${
          stringField(answer.json, "error") ?? stringField(answer.json, "thought") ?? "(no reason)"
        }`,
      );
    }
    const imageRect = family.toPixelRect(bbox, screen.modelImage);
    Object.assign(step, markTarget(imageRect));
    return { element: toLocatedElement(screen, imageRect, description), imageRect, screen };
  });
}
