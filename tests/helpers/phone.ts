/**
 * What the phone tests share: measuring an element on the virtual phone's screen for the test
 * model, locating by a map of descriptions to selectors, the phone's last input of a kind, and the
 * planner of the notes fixture's two-screen task.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { PlanReply, TargetBox } from "@sdk/core/testing";
import type { VirtualPhone } from "@sdk/web/testing";

/**
 * An element's box on the phone's screen now, in CSS pixels of its page (what the test model
 * takes; the model scales them to the screenshot).
 *
 * @throws {AssertionError} naming the selector when the element is not on screen.
 */
export async function phoneBox(phone: VirtualPhone, selector: string): Promise<TargetBox> {
  const box = await phone.foregroundPage().locator(selector).boundingBox();
  assert.ok(box, `${selector} is not on the phone's screen`);
  return { left: box.x, top: box.y, width: box.width, height: box.height };
}

/**
 * A test model's locate answer from a map of descriptions to selectors on `phone`'s page now:
 * the element's box, or `null` (not found) for a description the map lacks.
 */
export function locateBy(
  phone: VirtualPhone,
  targets: Record<string, string>,
): (call: { target: string }) => Promise<TargetBox | null> {
  return async ({ target }) => {
    const selector = targets[target.trim()];
    return selector ? await phoneBox(phone, selector) : null;
  };
}

/** The last input of `type` the phone recorded, or `undefined`. */
export function lastInput<T extends VirtualPhone["inputs"][number]["type"]>(
  phone: VirtualPhone,
  type: T,
): Extract<VirtualPhone["inputs"][number], { type: T }> | undefined {
  return phone.inputs.filter((i) => i.type === type).at(-1) as
    | Extract<VirtualPhone["inputs"][number], { type: T }>
    | undefined;
}

/** What {@link notesTaskPlanner} finishes with. */
export const NOTES_TASK_OUTPUT = "Note 2 has the text and a count of 1";

/**
 * The planner of "open Note 2, write TEXT and count once" on the notes fixture, as a model would
 * plan it from the screen: tap Note 2 on the list, type `text` into the detail screen's field,
 * tap +1, then finish with {@link NOTES_TASK_OUTPUT}. Each step measures its target on the phone.
 */
export function notesTaskPlanner(phone: VirtualPhone, text: string): () => Promise<PlanReply> {
  let step = 0;
  return async () => {
    step++;
    if (step === 1) {
      return {
        log: "open Note 2",
        action: {
          type: "Tap",
          param: { locate: { prompt: "Note 2", box: await phoneBox(phone, "#note-2") } },
        },
      };
    }
    if (step === 2) {
      return {
        log: "type the text",
        action: {
          type: "Input",
          param: {
            locate: { prompt: "the Text field", box: await phoneBox(phone, "#note-text") },
            value: text,
          },
        },
      };
    }
    if (step === 3) {
      return {
        log: "count once",
        action: {
          type: "Tap",
          param: { locate: { prompt: "the +1 button", box: await phoneBox(phone, "#increment") } },
        },
      };
    }
    return { log: "done", finished: true, output: NOTES_TASK_OUTPUT };
  };
}
