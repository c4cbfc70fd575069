/**
 * What the phone tests share: an agent over a simulated phone with its own test model, measuring
 * an element on the virtual phone's screen for the test model, locating by a map of descriptions
 * to selectors, the phone's last input of a kind, and the planner of the notes fixture's
 * two-screen task.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  type PlanReply,
  startTestModel,
  type TargetBox,
  type TestModel,
  type TestModelScript,
} from "@sdk/core/testing";
import type { VirtualPhone } from "@sdk/web/testing";

/** The agent options of a phone test: short waits, no report, nothing printed. */
export const PHONE_AGENT_OPTIONS = {
  waitAfterAction: 50,
  generateReport: false,
  autoPrintReportMsg: false,
} as const;

/** What a test file keeps of its phone agents: the phone's density and what to close after. */
export interface PhoneAgentKit<A> {
  /** Device pixels per CSS pixel of the virtual phone. */
  density: number;
  /** The test models started, closed by the file's `after`. */
  models: TestModel[];
  /** The agents made, destroyed by the file's `after`. */
  agents: A[];
}

/**
 * An agent over a simulated phone, with a test model of its own that scales its boxes to the
 * screenshot (`density`, shrunk by `shrink`, the device's `screenshotShrinkFactor`). `create`
 * builds the device and its agent from {@link PHONE_AGENT_OPTIONS} and the model's config; the
 * model and the agent go into `kit`, for the file's `after` to close.
 */
export async function phoneAgent<D, A>(
  kit: PhoneAgentKit<A>,
  script: TestModelScript,
  shrink: number | undefined,
  create: (
    agentOptions: typeof PHONE_AGENT_OPTIONS & { modelConfig: Record<string, string> },
  ) => { device: D; agent: A },
): Promise<{ agent: A; model: TestModel; device: D }> {
  const model = await startTestModel({
    script,
    imagePixelsPerCssPixel: kit.density / (shrink ?? 1),
  });
  kit.models.push(model);
  const { device, agent } = create({ modelConfig: model.modelConfig(), ...PHONE_AGENT_OPTIONS });
  kit.agents.push(agent);
  return { agent, model, device };
}

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
