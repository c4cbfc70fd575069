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
  type DeviceNeed,
  type DialectCall,
  dialectConversation,
  type DialectDeviceAction,
  type DialectLocate,
  type DialectParseContext,
  type DialectStep,
  fillParams,
  findDeviceAction,
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
const UI_TARS_WAIT_MS = 1000;

interface TarsAction {
  /** Signature shown in the prompt. */
  signature: string;
  /** What it does, for the prompt. */
  description: string;
  /** The device action it needs: by name, or by role (core/device/roles.ts). */
  device?: DeviceNeed;
}

const TARS_ACTIONS: Record<string, TarsAction> = {
  click: {
    signature: "click(start_box='(x,y)')",
    description: "left-click once",
    device: { name: "Tap" },
  },
  left_double: {
    signature: "left_double(start_box='(x,y)')",
    description: "double-click",
    device: { name: "DoubleClick" },
  },
  right_single: {
    signature: "right_single(start_box='(x,y)')",
    description: "right-click",
    device: { name: "RightClick" },
  },
  hover: {
    signature: "hover(start_box='(x,y)')",
    description: "move the pointer there without clicking",
    device: { name: "Hover" },
  },
  drag: {
    signature: "drag(start_box='(x1,y1)', end_box='(x2,y2)')",
    description: "drag from the start point and drop at the end point",
    device: { name: "DragAndDrop" },
  },
  hotkey: {
    signature: "hotkey(key='ctrl c')",
    description: "press a key or a combination; keys lowercase, separated by spaces",
    device: { name: "KeyboardPress" },
  },
  type: {
    signature: "type(content='text')",
    description:
      "type into the focused element (click it first); end the content with \\n to press Enter after typing",
    device: { name: "Input" },
  },
  scroll: {
    signature: "scroll(start_box='(x,y)', direction='down or up or right or left')",
    description: "scroll the area under the point",
    device: { name: "Scroll" },
  },
  long_press: {
    signature: "long_press(start_box='(x,y)')",
    description: "press and hold",
    device: { name: "LongPress" },
  },
  open_app: {
    signature: "open_app(app_name='name')",
    description: "open an app",
    device: { role: "launch" },
  },
  press_home: {
    signature: "press_home()",
    description: "go to the home screen",
    device: { role: "home" },
  },
  press_back: { signature: "press_back()", description: "go back", device: { role: "back" } },
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
  const lines = Object.values(TARS_ACTIONS)
    .filter((a) => !a.device || findDeviceAction(actions, a.device))
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

/**
 * Where each `Action:` marker of a UI-TARS answer ends (`Action：` with the full-width colon
 * too). A marker inside a quoted argument (`type(content='Action: wait()')`) or a quoted phrase
 * of the thought does not count; an apostrophe inside a word (`users' settings`, `don't`) opens
 * no quote, and a quote the thought leaves open closes at the end of its line.
 */
function actionMarkerEnds(text: string): number[] {
  const ends: number[] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote || ((c === "\n" || c === "\r") && ends.length === 0)) quote = undefined;
      continue;
    }
    if (c === "'" && /\w/.test(text[i - 1] ?? "")) continue;
    if (c === '"' || c === "'") {
      quote = c;
      continue;
    }
    const m = /^Action\s*[:：]/.exec(text.slice(i, i + 12));
    if (m && !/\w/.test(text[i - 1] ?? "")) {
      ends.push(i + m[0].length);
      i += m[0].length - 1;
    }
  }
  return ends;
}

/** The index of the call `text` starts with (after blanks and a backtick), or -1. */
function leadingCall(text: string, from = 0): number {
  const m = /^[\s`]*[A-Za-z_]\w*\s*\(/.exec(text.slice(from));
  return m ? from + m[0].search(/[A-Za-z_]/) : -1;
}

/** The text between the last `label:` before `end` and `end`, trimmed; undefined if none. */
function lastSection(text: string, label: RegExp, end: number): string | undefined {
  let found: string | undefined;
  for (const m of text.slice(0, end).matchAll(label)) {
    found = text.slice(m.index! + m[0].length, end).trim();
  }
  return found || undefined;
}

/** The action block and thought of a UI-TARS answer (docs/model-protocol.md). */
function splitAnswer(raw: string): { thought?: string; block: string; call: number } {
  let text = raw.replace(/```[a-z]*\n?/gi, "");
  const think = /<(think|thinking)>([\s\S]*?)(?:<\/\1>|$)/i.exec(text);
  if (think) text = text.replace(think[0], "\n");
  text = text.replace(/<\|box_start\|>|<\|box_end\|>/g, "");
  const ends = actionMarkerEnds(text);
  if (ends.length === 0) {
    return { thought: think?.[2].trim() || undefined, block: text, call: leadingCall(text) };
  }
  // Several `Action:` lines: the last one that holds a call is the answer (the reference
  // parser's choice); the earlier ones are the model thinking aloud.
  const chosen = [...ends].reverse().find((e) => leadingCall(text, e) >= 0) ?? ends.at(-1)!;
  const marker = text.lastIndexOf("Action", chosen);
  const before = Math.max(0, ...ends.filter((e) => e < chosen));
  const thought = lastSection(text, /\bThought\s*[:：]/g, marker) ??
    lastSection(text, /\bAction_Summary\s*[:：]/g, marker) ??
    (text.slice(before, marker).trim() || think?.[2].trim() || undefined);
  return { thought, block: text.slice(chosen), call: leadingCall(text.slice(chosen)) };
}

/** The action name a model wrote, in the dialect's own spelling, or undefined if unknown. */
function tarsName(written: string): string | undefined {
  const name = written.toLowerCase();
  if (TARS_ACTIONS[name]) return name;
  return TARS_ALIASES[name];
}

/** Reads one UI-TARS answer into a neutral step. */
function parseUiTarsAnswer(
  raw: string,
  context: DialectParseContext,
  toRect: (raw: unknown, image: ModelImageSize) => DialectLocate["rect"],
): DialectStep {
  const { thought, block, call: at } = splitAnswer(raw);
  const first = at >= 0 ? readCall(block, at) : undefined;
  const name = first && tarsName(first.name);
  if (!first || !name) {
    throw new ModelResponseError(
      (first
        ? `The UI-TARS action ${JSON.stringify(first.name)} is unknown. `
        : "The UI-TARS answer has no action. ") +
        `Write "Thought: ..." then one line "Action: ..." with one of: ${
          Object.keys(TARS_ACTIONS).join(", ")
        }. The answer was ${quoteExcerpt(raw)}`,
      raw,
    );
  }
  const call: DialectCall = { ...first, name };
  // Further calls in the same block are not performed (only the first is); they are named
  // in the step, so that the report shows them.
  const dropped: string[] = [];
  for (let next = readCall(block, call.end); next; next = readCall(block, next.end)) {
    if (tarsName(next.name)) dropped.push(next.text);
  }
  const rect = (v: unknown) => toRect(v, context.image);
  const start = ["start_box", "point", "start_point", "box"];
  const historyAnswer = `Thought: ${thought ?? ""}\nAction: ${call.text}`;
  const base = { thought, log: call.text, historyAnswer, ...(dropped.length ? { dropped } : {}) };
  const device = (tars: string) =>
    requireDeviceAction(context, TARS_ACTIONS[tars].device!, "UI-TARS", call.text);
  const step = (actions: DialectDeviceAction[]): DialectStep => ({
    ...base,
    type: "actions",
    actions,
  });
  const one = (a: DialectDeviceAction) => step([a]);

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
      // A start_box (seen in the reference parser's tests) names the field: it is tapped first.
      const box = start.find((k) => call.args[k] !== undefined);
      const param: Record<string, unknown> = box
        ? fillParams(action, [boxArg(call, [box], rect, true)!], { value: content })
        : { value: content };
      param.mode = "typeOnly";
      const actions: DialectDeviceAction[] = [{ name: action.name, param }];
      if (submit) {
        const press = requireDeviceAction(context, { name: "KeyboardPress" }, "UI-TARS", call.text);
        actions.push({ name: press.name, param: { keyName: "Enter" } });
      }
      return step(actions);
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
      const app = (call.args.app_name ?? call.args.app ?? call.positional[0] ?? "").trim();
      if (!app) {
        throw new ModelResponseError(
          `The action ${call.text} names no app: write open_app(app_name='name')`,
          raw,
        );
      }
      return one({ name: action.name, param: fillParams(action, [], {}, app) });
    }
    case "press_home":
    case "press_back":
      return one({ name: device(call.name).name, param: {} });
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
