/**
 * Family-T (UI-TARS): `vlm-ui-tars`, `vlm-ui-tars-doubao`, `vlm-ui-tars-doubao-1.5`
 * (MODEL_FAMILIES.md). Locations are normalized to 0-1000; planning uses the UI-TARS text
 * dialect: `Thought: ...` then `Action: click(start_box='(x,y)')`, one action per turn, with the
 * earlier turns kept as assistant messages.
 *
 * @module
 */

import type { DeviceAction } from "../../device/types.ts";
import { ModelResponseError, PlanningError, quoteExcerpt } from "../../errors.ts";
import {
  type DialectCall,
  dialectConversation,
  type DialectDeviceAction,
  type DialectLocate,
  type DialectParseContext,
  type DialectStep,
  fillParams,
  type PlannerDialect,
  readCall,
  requireDeviceAction,
  toKeyCombo,
} from "../dialect.ts";
import { normalizedToRect, readBoxNumbers } from "./box.ts";
import type { ModelImageSize } from "../chat.ts";
import type { ModelFamily } from "./types.ts";

/** Earlier screenshots kept in the conversation (the current one comes on top). */
const UI_TARS_KEPT_IMAGES = 2;

/** How long `wait()` sleeps, ms. */
export const UI_TARS_WAIT_MS = 1000;

interface TarsAction {
  /** Signature shown in the prompt. */
  signature: string;
  /** What it does, for the prompt. */
  description: string;
  /** The device action it needs. */
  device?: string;
}

const TARS_ACTIONS: Record<string, TarsAction> = {
  click: { signature: "click(start_box='(x,y)')", description: "left-click once", device: "Tap" },
  left_double: {
    signature: "left_double(start_box='(x,y)')",
    description: "double-click",
    device: "DoubleClick",
  },
  right_single: {
    signature: "right_single(start_box='(x,y)')",
    description: "right-click",
    device: "RightClick",
  },
  hover: {
    signature: "hover(start_box='(x,y)')",
    description: "move the pointer there without clicking",
    device: "Hover",
  },
  drag: {
    signature: "drag(start_box='(x1,y1)', end_box='(x2,y2)')",
    description: "drag from the start point and drop at the end point",
    device: "DragAndDrop",
  },
  hotkey: {
    signature: "hotkey(key='ctrl c')",
    description: "press a key or a combination; keys lowercase, separated by spaces",
    device: "KeyboardPress",
  },
  type: {
    signature: "type(content='text')",
    description:
      "type into the focused element (click it first); end the content with \\n to press Enter after typing",
    device: "Input",
  },
  scroll: {
    signature: "scroll(start_box='(x,y)', direction='down or up or right or left')",
    description: "scroll the area under the point",
    device: "Scroll",
  },
  long_press: {
    signature: "long_press(start_box='(x,y)')",
    description: "press and hold",
    device: "LongPress",
  },
  open_app: {
    signature: "open_app(app_name='name')",
    description: "open an app",
    device: "Launch",
  },
  press_home: { signature: "press_home()", description: "go to the home screen", device: "Home" },
  press_back: { signature: "press_back()", description: "go back", device: "Back" },
  wait: { signature: "wait()", description: "wait for the screen to change" },
  finished: {
    signature: "finished(content='answer')",
    description: "the task is done; put any answer the task asks for in content (escape ' as \\')",
  },
  call_user: {
    signature: "call_user()",
    description: "the task cannot be done without the user's help; say why in the Thought",
  },
};

/** Other names models use for the same actions. */
const TARS_ALIASES: Record<string, string> = {
  left_single: "click",
  tap: "click",
  double_click: "left_double",
  right_click: "right_single",
  select: "drag",
  press: "hotkey",
  keydown: "hotkey",
  mouse_move: "hover",
  move_to: "hover",
  finish: "finished",
  long_click: "long_press",
};

function tarsSystemPrompt(actions: readonly DeviceAction[]): string {
  const names = new Set(actions.map((a) => a.name));
  const lines = Object.values(TARS_ACTIONS)
    .filter((a) => !a.device || names.has(a.device))
    .map((a) => `${a.signature}  # ${a.description}`);
  return [
    "You are a UI automation planner.",
    "You are a GUI agent. You see the task, the actions you already did, and screenshots of the screen. Do the next single action towards completing the task.",
    "",
    "## Output format",
    "Thought: <what you see and why you choose the action, in one or two sentences>",
    "Action: <exactly one action from the action space>",
    "",
    "## Action space",
    ...lines,
    "",
    "## Notes",
    "- x and y are normalized to 0-1000 of the screenshot's width (x) and height (y); (0,0) is the top-left corner.",
    "- Only the actions above exist on this device.",
    "- When the task is complete, answer finished(content='...') instead of another action.",
  ].join("\n");
}

/** Reads the value of a box argument into a rect (family-T: 0-1000, any box shape). */
function boxArg(
  call: DialectCall,
  keys: readonly string[],
  toRect: (raw: unknown) => DialectLocate["rect"],
  required: boolean,
): DialectLocate | undefined {
  const key = keys.find((k) => call.args[k] !== undefined);
  const value = key ? call.args[key] : call.positional[0];
  if (value === undefined || value.trim() === "") {
    if (!required) return undefined;
    throw new ModelResponseError(
      `The action ${call.text} has no ${keys[0]}: write it as ${
        TARS_ACTIONS[call.name]?.signature ?? "start_box='(x,y)'"
      }`,
      call.text,
    );
  }
  return { prompt: call.text, rect: toRect(value) };
}

/** Thought and action text of a UI-TARS answer. */
function splitAnswer(raw: string): { thought?: string; actionText: string } {
  let text = raw.replace(/```[a-z]*\n?/gi, "").replace(/<\/?(think|thinking)>/gi, "");
  text = text.replace(/<\|box_start\|>|<\|box_end\|>/g, "");
  const actionAt = text.search(/\bAction\s*:/i);
  const thoughtMatch =
    /\bThought\s*:\s*([\s\S]*?)(?=\n\s*(?:Action|Reflection|Action_Summary)\s*:|$)/i
      .exec(text);
  const thought = thoughtMatch?.[1].trim() ||
    (actionAt > 0 ? text.slice(0, actionAt).trim() : undefined) || undefined;
  const actionText = actionAt >= 0 ? text.slice(actionAt).replace(/^Action\s*:\s*/i, "") : text;
  return { thought, actionText };
}

/** Finds the first call in `text` whose name is a known action. */
function findTarsCall(text: string): DialectCall | undefined {
  let from = 0;
  for (;;) {
    const call = readCall(text, from);
    if (!call) return undefined;
    const name = call.name.toLowerCase().replace(/\s+/g, "_");
    if (TARS_ACTIONS[name] || TARS_ALIASES[name]) {
      return { ...call, name: TARS_ALIASES[name] ?? name };
    }
    from = text.indexOf(call.name, from) + call.name.length;
  }
}

/** Reads one UI-TARS answer into a neutral step. */
export function parseUiTarsAnswer(
  raw: string,
  context: DialectParseContext,
  toRect: (raw: unknown, image: ModelImageSize) => DialectLocate["rect"],
): DialectStep {
  const { thought, actionText } = splitAnswer(raw);
  const call = findTarsCall(actionText);
  if (!call) {
    throw new ModelResponseError(
      `The UI-TARS answer has no action. Write "Thought: ..." then one line "Action: ..." with one of: ${
        Object.keys(TARS_ACTIONS).join(", ")
      }. The answer was ${quoteExcerpt(raw)}`,
      raw,
    );
  }
  const rect = (v: unknown) => toRect(v, context.image);
  const start = ["start_box", "point", "start_point", "box"];
  const historyAnswer = `Thought: ${thought ?? ""}\nAction: ${call.text}`;
  const base = { thought, log: call.text, historyAnswer };
  const device = (tarsName: string) =>
    requireDeviceAction(context.actions, TARS_ACTIONS[tarsName].device!, "UI-TARS", call.text);
  const one = (a: DialectDeviceAction): DialectStep => ({ ...base, type: "actions", actions: [a] });

  switch (call.name) {
    case "click":
    case "left_double":
    case "right_single":
    case "hover":
    case "long_press": {
      const action = device(call.name);
      return one({
        name: action.name,
        param: fillParams(action, [boxArg(call, start, rect, true)!]),
      });
    }
    case "drag": {
      const action = device("drag");
      const from = boxArg(call, start, rect, true)!;
      const to = boxArg(call, ["end_box", "end_point"], rect, false);
      if (!to) {
        throw new ModelResponseError(
          `The action ${call.text} has no end_box: write drag(start_box='(x1,y1)', end_box='(x2,y2)')`,
          raw,
        );
      }
      return one({ name: action.name, param: fillParams(action, [from, to]) });
    }
    case "hotkey": {
      const action = device("hotkey");
      const keys = call.args.key ?? call.args.hotkey ?? call.args.keys ?? call.positional[0] ?? "";
      return one({ name: action.name, param: { keyName: toKeyCombo(keys, raw) } });
    }
    case "type": {
      const action = device("type");
      let content = call.args.content ?? call.args.text ?? call.positional[0] ?? "";
      const submit = /\n$/.test(content);
      if (submit) content = content.replace(/\n+$/, "");
      const actions: DialectDeviceAction[] = [{
        name: action.name,
        param: { value: content, mode: "typeOnly" },
      }];
      if (submit) {
        const press = requireDeviceAction(context.actions, "KeyboardPress", "UI-TARS", call.text);
        actions.push({ name: press.name, param: { keyName: "Enter" } });
      }
      return { ...base, type: "actions", actions };
    }
    case "scroll": {
      const action = device("scroll");
      const at = boxArg(call, start, rect, false);
      const direction = (call.args.direction ?? call.positional[1] ?? "down").trim().toLowerCase();
      if (!["down", "up", "left", "right"].includes(direction)) {
        throw new ModelResponseError(
          `The action ${call.text} has direction ${
            JSON.stringify(direction)
          }; use down, up, left or right`,
          raw,
        );
      }
      return one({
        name: action.name,
        param: fillParams(action, at ? [at] : [], { direction }),
      });
    }
    case "open_app": {
      const action = device("open_app");
      const app = call.args.app_name ?? call.args.app ?? call.positional[0] ?? "";
      return one({ name: action.name, param: fillParams(action, [], {}, app) });
    }
    case "press_home":
    case "press_back": {
      const action = device(call.name);
      return one({ name: action.name, param: {} });
    }
    case "wait":
      return { ...base, type: "wait", ms: UI_TARS_WAIT_MS };
    case "finished": {
      const content = call.args.content ?? call.positional[0];
      return { ...base, type: "finished", output: content?.trim() ? content : undefined };
    }
    case "call_user":
      return {
        ...base,
        type: "error",
        message: `The UI-TARS model asks for the user's help: ${thought ?? "(no reason given)"}`,
      };
  }
  throw new PlanningError(`UI-TARS action ${call.text} is not handled`);
}

function uiTarsDialect(toRect: (raw: unknown, image: ModelImageSize) => DialectLocate["rect"]) {
  const dialect: PlannerDialect = {
    name: "UI-TARS",
    messages: (input) =>
      dialectConversation(tarsSystemPrompt(input.actions), input, UI_TARS_KEPT_IMAGES),
    parse: (raw, context) => parseUiTarsAnswer(raw, context, toRect),
  };
  return dialect;
}

function tarsFamily(name: string): ModelFamily {
  const toPixelRect = (raw: unknown, image: ModelImageSize) =>
    normalizedToRect(readBoxNumbers(raw, name), image, name, raw);
  return {
    name,
    boxConvention:
      "Write every bbox as [x1, y1, x2, y2]: left, top, right, bottom, each normalized to 0-1000 of the image width (x) or height (y).",
    replanningCycleLimit: 40,
    toPixelRect,
    planner: uiTarsDialect(toPixelRect),
  };
}

/** `vlm-ui-tars`: UI-TARS. */
export const uiTarsFamily: ModelFamily = tarsFamily("vlm-ui-tars");
/** `vlm-ui-tars-doubao`: UI-TARS served as Doubao. */
export const uiTarsDoubaoFamily: ModelFamily = tarsFamily("vlm-ui-tars-doubao");
/** `vlm-ui-tars-doubao-1.5`: UI-TARS 1.5 served as Doubao. */
export const uiTarsDoubao15Family: ModelFamily = tarsFamily("vlm-ui-tars-doubao-1.5");
