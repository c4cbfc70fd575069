/**
 * The prompts of every call kind, exactly as `docs/model-protocol.md` documents them.
 *
 * @module
 */

import type { DeviceAction } from "../device/types.ts";
import type { ModelFamily } from "./families/mod.ts";

/** Size of the image the model sees. */
export interface PromptImage {
  /** Width in image pixels. */
  width: number;
  /** Height in image pixels. */
  height: number;
}

const block = (tag: string, body: string | undefined): string =>
  body === undefined || body === "" ? "" : `<${tag}>\n${body}\n</${tag}>\n`;

const screenLine = (image: PromptImage) =>
  `The screenshot is ${image.width} x ${image.height} pixels.`;

const JSON_ONLY = "Answer with one JSON object and nothing else.";

// What a <page-dom> block (domIncluded, spec 4.3) holds; the format is the device seam's
// getElementsDescription.
const PAGE_DOM_HELP =
  'A <page-dom> block, when given, lists the page\'s elements, one per line, indented by nesting: tag#id, attributes, text="own text", box=(left,top,width,height) in logical pixels of the screen (CSS pixels of the viewport on a web page); "hidden" marks an element that is not rendered, "off-screen" one outside the screen. It also shows what the screenshot cannot (link targets, hidden elements).';

/** Describes an action space for the planner, one action per line with its parameters. */
function describeActionSpace(
  actions: readonly DeviceAction[],
  locateInPlan: boolean,
): string {
  return actions.map((a) => {
    const params = a.params.map((p) => {
      const type = p.type === "enum"
        ? (p.values ?? []).map((v) => JSON.stringify(v)).join(" | ")
        : p.type;
      return `    - ${p.name} (${type}, ${p.required ? "required" : "optional"}): ${p.description}`;
    });
    return `- ${a.name}: ${a.description}${params.length ? "\n" + params.join("\n") : ""}`;
  }).join("\n") +
    (locateInPlan
      ? `\nA locate parameter is {"prompt": "<description of the element>", "bbox": [...]}.`
      : `\nA locate parameter is {"prompt": "<description of the element>"}; do not give a bbox, the element is located separately.`);
}

/** System prompt of `aiAct` planning. */
export function planSystemPrompt(
  actions: readonly DeviceAction[],
  family: ModelFamily,
  locateInPlan: boolean,
  maxActions = 1,
): string {
  const several = maxActions > 1;
  return [
    "You are a UI automation planner.",
    several
      ? "You see a screenshot of the current screen and an instruction. Decide the next actions that move towards completing the instruction, given the actions already done (history)."
      : "You see a screenshot of the current screen and an instruction. Decide the next single action that moves towards completing the instruction, given the actions already done (history).",
    "Available actions:",
    describeActionSpace(actions, locateInPlan),
    locateInPlan ? family.boxConvention : "",
    JSON_ONLY,
    several
      ? `Shape: {"thought": string, "log": string, "actions": [{"type": string, "param": object, "log": string}], "finished": boolean, "output"?: string, "error"?: string}`
      : `Shape: {"thought": string, "log": string, "action": {"type": string, "param": object} | null, "finished": boolean, "output"?: string, "error"?: string}`,
    several
      ? `- "actions": at most ${maxActions}, done in order on the screen as it is now; [] when none is needed. Give several only when each acts on an element visible in this screenshot and none needs to see the result of another, e.g. the fields of one form, with the button that submits it last. End the list with any action that adds, removes, filters, reorders, navigates, submits, opens or closes something (a list row, a menu, a popover, a dialog, a page): anything that can move or cover what a later action aims at; also end it with an action whose result you must see first; when unsure, give one. Before each further action its target is checked, and the rest of the list is dropped when the target moved, changed or is covered, or the screen changed beyond the element acted on; the history then says so. Each action's "log" says what it does.`
      : "",
    `- "log": a short description of the ${several ? "actions" : "action"}, kept in the history.`,
    `- "finished": true when the instruction is complete once ${
      several ? "these actions are" : "this action (if any) is"
    } done; put any answer the instruction asks for in "output".`,
    `- "error": only when the instruction cannot be done, or when something the instruction asserts is false; explain why.`,
  ].filter(Boolean).join("\n");
}

/** User text of `aiAct` planning. */
export function planUserText(
  instruction: string,
  history: readonly string[],
  context: string | undefined,
  image: PromptImage,
): string {
  const h = history.length ? history.map((l, i) => `${i + 1}. ${l}`).join("\n") : "(none)";
  return block("instruction", instruction) + block("context", context) + block("history", h) +
    screenLine(image);
}

/** System prompt of a locate call. */
export function locateSystemPrompt(family: ModelFamily): string {
  return [
    "You are a UI element locator.",
    "Find the element the target describes on the screenshot.",
    family.boxConvention,
    JSON_ONLY,
    `Shape: {"thought": string, "bbox": <numbers as described above> | null, "error"?: string}. When the element is not visible, give "bbox": null and say why in "error".`,
  ].join("\n");
}

/** User text of a locate call. */
export function locateUserText(
  target: string,
  context: string | undefined,
  image: PromptImage,
): string {
  return block("target", target) + block("context", context) + screenLine(image);
}

/** The shape an extraction returns. */
export type ExtractReturnType = "any" | "boolean" | "number" | "string";

/** System prompt of an extraction. */
export function extractSystemPrompt(): string {
  return [
    "You are a UI data extractor.",
    "Read the screenshot and return the data the demand describes, in the shape it describes. For return-type boolean, number or string, data must be a JSON value of that type.",
    PAGE_DOM_HELP,
    JSON_ONLY,
    `Shape: {"thought": string, "data": any, "error"?: string}. When the data cannot be read, give "data": null and say why in "error".`,
  ].join("\n");
}

/** User text of an extraction. */
export function extractUserText(
  demand: string,
  returnType: ExtractReturnType,
  context: string | undefined,
  image: PromptImage | undefined,
  domText?: string,
  observation?: string,
): string {
  return block("demand", demand) + block("return-type", returnType) + block("context", context) +
    block("page-dom", domText) + block("observation", observation) +
    (image ? screenLine(image) : "");
}

/** System prompt of an assertion. */
export function assertSystemPrompt(): string {
  return [
    "You are a UI assertion checker.",
    "Decide whether the assertion is true of the screen shown on the screenshot.",
    PAGE_DOM_HELP,
    JSON_ONLY,
    `Shape: {"thought": string, "pass": boolean}. "thought" gives the reason, shown to the user.`,
  ].join("\n");
}

/** User text of an assertion. */
export function assertUserText(
  assertion: string,
  context: string | undefined,
  image: PromptImage | undefined,
  domText?: string,
  observation?: string,
): string {
  return block("assertion", assertion) + block("context", context) +
    block("page-dom", domText) + block("observation", observation) +
    (image ? screenLine(image) : "");
}

/**
 * The `<observation>` block of an observation query (spec 4.4): what the named frames and the
 * screenshot are. `frameNames` in time order; `withScreenshot` false with `screenshotIncluded:
 * false`.
 */
export function observationText(frameNames: readonly string[], withScreenshot: boolean): string {
  const n = frameNames.length;
  const frames = n === 0
    ? "No frames were recorded while observing."
    : n === 1
    ? `The image named ${JSON.stringify(frameNames[0])} after this text is the screen as observed.`
    : `The ${n} images named ${JSON.stringify(frameNames[0])} to ${
      JSON.stringify(frameNames[n - 1])
    } after this text show the screen over time, in time order (seconds after observing started).`;
  return withScreenshot
    ? `${frames} The screenshot is the final state of the screen, taken when observing stopped.`
    : frames;
}
