/**
 * The planner-dialect seam: some model families plan in a text dialect of their own (UI-TARS,
 * AutoGLM; MODEL_FAMILIES.md, "Limits and dialects") instead of the SDK's JSON protocol. A dialect
 * builds the conversation of one planning turn (its system prompt, its own history format, the
 * screenshot) and reads an answer into a neutral step: device actions with parameters, a wait,
 * `finished`, or an error. `runPlan` drives any dialect the same way; nothing branches on a
 * family's name.
 *
 * This module also holds the parsing helpers the dialects share: a lenient reader of
 * `name(key='value', ...)` calls, key-name mapping, and the mapping of a dialect action onto the
 * device's action space with a clear error when the device lacks it.
 *
 * @module
 */

import { promptImageParts } from "./prompt_images.ts";
import type { ResolvedPromptImage } from "./prompt_images.ts";
import type { DeviceAction, Rect } from "../device/types.ts";
import { normalizeKeyCombo } from "../device/keys.ts";
import { type ActionRole, describeRole, findRoleAction } from "../device/roles.ts";
import { ModelResponseError, PlanningError } from "../errors.ts";
import type { ChatContentPart, ChatMessage } from "./chat.ts";
import type { ModelImageSize } from "./chat.ts";

/** An image as sent in a planning turn. */
export interface DialectImage {
  /** PNG or JPEG data URI. */
  dataUri: string;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/** One earlier turn of the conversation, as the dialect keeps it. */
export interface DialectTurn {
  /** The assistant message kept for this turn, in the dialect's own format. */
  answer: string;
  /** The screenshot the turn was planned on. */
  image: DialectImage;
}

/** What a dialect needs to build the messages of one planning turn. */
export interface DialectTurnInput {
  /** The user's instruction. */
  instruction: string;
  /** Effective user context, when any. */
  context?: string;
  /** The device's actions (the dialect lists only those it can map). */
  actions: readonly DeviceAction[];
  /** The current screenshot, as the model sees it. */
  image: DialectImage;
  /** Earlier turns, oldest first. */
  history: readonly DialectTurn[];
  /** Named images of the prompt (spec 2.5), sent after the current screenshot; may be empty. */
  promptImages?: readonly ResolvedPromptImage[];
}

/**
 * A location in a parsed step: the element's rectangle in pixels of the image the model saw
 * (already converted from the dialect's coordinates), with a description for the report.
 */
export interface DialectLocate {
  /** Description of the target (the dialect's own words, or the action). */
  prompt: string;
  /** Rectangle in model-image pixels. */
  rect: Rect;
}

/** One device action of a parsed step. `locate`-type parameters hold {@link DialectLocate}s. */
export interface DialectDeviceAction {
  /** Name in the device's action space. */
  name: string;
  /** Parameters; locate parameters as {@link DialectLocate}. */
  param: Record<string, unknown>;
}

/** Fields every parsed step has. */
export interface DialectStepBase {
  /** The model's reasoning, for the report. */
  thought?: string;
  /** The action as the dialect wrote it, e.g. `click(start_box='(100,200)')`. */
  log: string;
  /** The assistant message kept in the history for this turn (normalized). */
  historyAnswer: string;
  /**
   * Further actions the answer held that are not performed (a UI-TARS `Action:` block with
   * several calls: only the first counts), as the dialect wrote them; the report shows them.
   */
  dropped?: string[];
}

/** A step read from a dialect answer. */
export type DialectStep =
  | DialectStepBase & {
    type: "actions";
    /**
     * Device actions to perform in order: usually one (`type('text\n')` adds an Enter); none
     * for a dialect action that changes nothing on the screen (AutoGLM `Note`, `Call_API`).
     */
    actions: DialectDeviceAction[];
  }
  | DialectStepBase & { type: "wait"; ms: number }
  | DialectStepBase & { type: "finished"; output?: string }
  | DialectStepBase & { type: "error"; message: string };

/** Context of parsing one answer. */
export interface DialectParseContext {
  /** The device's actions. */
  actions: readonly DeviceAction[];
  /** Size of the image the model saw. */
  image: ModelImageSize;
  /** The device's `interfaceType` (`"android"`, `"ios"`, `"web-page"`, ...), named in errors. */
  platform?: string;
}

/** A planning dialect, carried by a model family (`ModelFamily.planner`). */
export interface PlannerDialect {
  /** Name shown in errors, e.g. `"UI-TARS"`. */
  readonly name: string;
  /** The messages of one planning turn. */
  messages(input: DialectTurnInput): ChatMessage[];
  /**
   * Reads an answer.
   *
   * @throws {ModelResponseError} when the answer cannot be read (the SDK retries once).
   * @throws {PlanningError} when it names an action the device does not have.
   */
  parse(raw: string, context: DialectParseContext): DialectStep;
}

// ---- conversation --------------------------------------------------------------------------

/** The sentence stating the image size (docs/model-protocol.md, "The image"). */
function screenSentence(image: { width: number; height: number }): string {
  return `The screenshot is ${image.width} x ${image.height} pixels.`;
}

function imagePart(image: DialectImage): ChatContentPart {
  return { type: "image_url", image_url: { url: image.dataUri } };
}

/**
 * The conversation shape both dialects use: the system prompt; a user message with the
 * instruction (and context); then per earlier turn a user message with its screenshot (only the
 * last `keepImages` earlier turns keep theirs) and the assistant's answer; then the current
 * screenshot, followed by the prompt's named images when it has any.
 */
export function dialectConversation(
  system: string,
  input: DialectTurnInput,
  keepImages: number,
): ChatMessage[] {
  const task = `<instruction>\n${input.instruction}\n</instruction>\n` +
    (input.context ? `<context>\n${input.context}\n</context>\n` : "");
  const messages: ChatMessage[] = [
    { role: "system", content: system },
    { role: "user", content: [{ type: "text", text: task.trimEnd() }] },
  ];
  const n = input.history.length;
  input.history.forEach((turn, i) => {
    const content: ChatContentPart[] = i >= n - keepImages
      ? [imagePart(turn.image), { type: "text", text: screenSentence(turn.image) }]
      : [{ type: "text", text: "(screenshot of this step left out)" }];
    messages.push({ role: "user", content });
    messages.push({ role: "assistant", content: turn.answer });
  });
  messages.push({
    role: "user",
    content: [
      imagePart(input.image),
      { type: "text", text: screenSentence(input.image) },
      ...promptImageParts(input.promptImages),
    ],
  });
  return messages;
}

// ---- reading calls ---------------------------------------------------------------------------

/** A call read from dialect text: `name(key=value, ...)`. */
export interface DialectCall {
  /** Function name as written. */
  name: string;
  /** Arguments by name; quoted values unquoted and unescaped, others as written (trimmed). */
  args: Record<string, string>;
  /** Positional (unnamed) arguments. */
  positional: string[];
  /** The call's text, from the name to the closing parenthesis. */
  text: string;
  /** Index in the text read just after the call (after its closing parenthesis). */
  end: number;
}

function unescape(s: string): string {
  return s.replace(
    /\\(.)/g,
    (_, c: string) => c === "n" ? "\n" : c === "t" ? "\t" : c === "r" ? "\r" : c,
  );
}

/**
 * Reads the first `name(...)` call at or after `from` in `text`. Values may be quoted with `'`
 * or `"` (backslash escapes kept as the model meant them), bracketed (`[1,2]`, `(1,2)`), or bare.
 * A missing closing parenthesis is tolerated at the end of the text.
 */
export function readCall(text: string, from = 0): DialectCall | undefined {
  const re = /([A-Za-z_]\w*)\s*\(/g;
  re.lastIndex = from;
  const m = re.exec(text);
  if (!m) return undefined;
  const name = m[1].trim();
  let i = m.index + m[0].length;
  const args: Record<string, string> = {};
  const positional: string[] = [];
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= text.length) break;
    if (text[i] === ")") {
      i++;
      break;
    }
    if (text[i] === ",") {
      i++;
      continue;
    }
    let key: string | undefined;
    const km = /^([A-Za-z_]\w*)\s*[=:]\s*/.exec(text.slice(i));
    if (km) {
      key = km[1];
      i += km[0].length;
    }
    let value: string;
    const q = text[i];
    if (q === "'" || q === '"') {
      let j = i + 1;
      let raw = "";
      for (; j < text.length; j++) {
        if (text[j] === "\\" && j + 1 < text.length) {
          raw += text[j] + text[j + 1];
          j++;
        } else if (text[j] === q) {
          // A quote closes the value only when a separator follows; models leave inner quotes
          // of the same kind unescaped.
          const rest = text.slice(j + 1).trimStart();
          if (rest === "" || rest[0] === "," || rest[0] === ")") break;
          raw += text[j];
        } else raw += text[j];
      }
      value = unescape(raw);
      i = j + 1;
    } else {
      let depth = 0, j = i;
      for (; j < text.length; j++) {
        const c = text[j];
        if (c === "[" || c === "(" || c === "{" || c === "<") depth++;
        else if (c === "]" || c === "}" || c === ">" || (c === ")" && depth > 0)) depth--;
        else if (depth <= 0 && (c === "," || c === ")")) break;
      }
      value = text.slice(i, j).trim();
      i = j;
    }
    if (key) args[key] = value;
    else positional.push(value);
  }
  return { name, args, positional, text: text.slice(m.index, i).trim(), end: i };
}

// ---- keys --------------------------------------------------------------------------------------

/**
 * A dialect's key combination (`'ctrl c'`, `'Ctrl+Shift+T'`, `'enter'`) as the device's
 * `KeyboardPress` writes it (`Control+C`, `Control+Shift+T`, `Enter`).
 *
 * @throws {ModelResponseError} when no key is given.
 */
export function toKeyCombo(keys: string, raw: string): string {
  const parts = keys.trim().split(/[\s+]+/).filter(Boolean);
  if (parts.length === 0) {
    throw new ModelResponseError(`The hotkey names no key: ${JSON.stringify(keys)}`, raw);
  }
  // Dialects write letters in lower case ("ctrl c"); a shortcut names the key, as "Control+C".
  const combo = parts.map((p) => p.length === 1 ? p.toUpperCase() : p).join("+");
  try {
    return normalizeKeyCombo(combo);
  } catch (e) {
    throw new ModelResponseError((e as Error).message, raw);
  }
}

// ---- mapping onto the device ----------------------------------------------------------------

/**
 * What a dialect action needs of the device: the action of that name (`Tap`, `Input`, ...), or
 * the action of a role (back, home, recent apps, launch: core/device/roles.ts), whatever the
 * platform calls it.
 */
export type DeviceNeed = { name: string } | { role: ActionRole };

/** What each role does, in an error's words. */
const ROLE_PURPOSE: Record<ActionRole, string> = {
  back: "going back",
  home: "going to the home screen",
  recentApps: "opening the app switcher",
  launch: "opening an app",
};

/** The device action that meets `need`, or `undefined` when the device has none. */
export function findDeviceAction(
  actions: readonly DeviceAction[],
  need: DeviceNeed,
): DeviceAction | undefined {
  return "name" in need
    ? actions.find((a) => a.name === need.name)
    : findRoleAction(actions, need.role);
}

/**
 * The device action that meets `need`, or a {@link PlanningError} that names the dialect's
 * action, the platform (`context.platform`), what the action needs, and lists the device's
 * actions.
 */
export function requireDeviceAction(
  context: Pick<DialectParseContext, "actions" | "platform">,
  need: DeviceNeed,
  dialect: string,
  dialectAction: string,
): DeviceAction {
  const found = findDeviceAction(context.actions, need);
  if (found) return found;
  const device = context.platform ? `this device ("${context.platform}")` : "this device";
  const needs = "name" in need
    ? `it needs a device action named "${need.name}"`
    : `${ROLE_PURPOSE[need.role]} needs ${describeRole(need.role)}`;
  throw new PlanningError(
    `The ${dialect} model chose the action "${dialectAction}", which ${device} does not have ` +
      `(${needs}). This device's actions are: ${context.actions.map((a) => a.name).join(", ")}`,
  );
}

/**
 * Fills the parameters of `action` by kind: its locate parameters in order from `locates`, its
 * first string parameter from `text` (unless named in `named`), plus `named` values for
 * parameters the action declares.
 */
export function fillParams(
  action: DeviceAction,
  locates: readonly DialectLocate[],
  named: Record<string, unknown> = {},
  text?: string,
): Record<string, unknown> {
  const param: Record<string, unknown> = {};
  let li = 0;
  let textUsed = false;
  for (const spec of action.params) {
    if (spec.name in named) {
      if (named[spec.name] !== undefined) param[spec.name] = named[spec.name];
    } else if (spec.type === "locate") {
      if (li < locates.length) param[spec.name] = locates[li++];
    } else if (spec.type === "string" && text !== undefined && !textUsed) {
      param[spec.name] = text;
      textUsed = true;
    }
  }
  return param;
}
