/**
 * Family-G (AutoGLM): `auto-glm`, `auto-glm-multilingual` (MODEL_FAMILIES.md). Coordinates run
 * 0-999 and map as `/1000` then to pixels; planning uses the AutoGLM text dialect:
 * `<think>...</think><answer>do(action="Tap", element=[x,y])</answer>` or
 * `finish(message="...")`, one action per turn, earlier turns kept as assistant messages (only
 * the current screenshot is sent).
 *
 * @module
 */

import type { DeviceAction } from "../../device/types.ts";
import { ModelResponseError, quoteExcerpt } from "../../errors.ts";
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
} from "../dialect.ts";
import { normalizedToRect, readBoxNumbers } from "./box.ts";
import type { ModelImageSize } from "../chat.ts";
import type { ModelFamily } from "./types.ts";

/** Longest `Wait` honoured, ms. */
const MAX_WAIT_MS = 10_000;

interface GlmAction {
  signature: string;
  description: string;
  /** The device action it needs: by name, or by role (core/device/roles.ts). */
  device?: DeviceNeed;
}

/** The AutoGLM actions, by their name lowercased without spaces or underscores. */
const GLM_ACTIONS: Record<string, GlmAction & { name: string }> = {
  tap: {
    name: "Tap",
    signature: 'do(action="Tap", element=[x,y])',
    description: "tap (click) the point",
    device: { name: "Tap" },
  },
  doubletap: {
    name: "Double Tap",
    signature: 'do(action="Double Tap", element=[x,y])',
    description: "double-tap the point",
    device: { name: "DoubleClick" },
  },
  longpress: {
    name: "Long Press",
    signature: 'do(action="Long Press", element=[x,y])',
    description: "press and hold the point",
    device: { name: "LongPress" },
  },
  type: {
    name: "Type",
    signature: 'do(action="Type", text="...")',
    description: "type into the focused input field (tap it first), replacing its content",
    device: { name: "Input" },
  },
  swipe: {
    name: "Swipe",
    signature: 'do(action="Swipe", start=[x1,y1], end=[x2,y2])',
    description: "swipe from start to end",
    device: { name: "Swipe" },
  },
  launch: {
    name: "Launch",
    signature: 'do(action="Launch", app="name")',
    description: "open an app",
    device: { role: "launch" },
  },
  back: {
    name: "Back",
    signature: 'do(action="Back")',
    description: "go back",
    device: { role: "back" },
  },
  home: {
    name: "Home",
    signature: 'do(action="Home")',
    description: "go to the home screen",
    device: { role: "home" },
  },
  wait: {
    name: "Wait",
    signature: 'do(action="Wait", duration="2 seconds")',
    description: "wait for the screen to load",
  },
  takeover: {
    name: "Take_over",
    signature: 'do(action="Take_over", message="why")',
    description: "the user must act (log-in, captcha); the task stops",
  },
  note: {
    name: "Note",
    signature: 'do(action="Note", message="...")',
    description: "record what the screen shows; nothing is done on the screen",
  },
  callapi: {
    name: "Call_API",
    signature: 'do(action="Call_API", instruction="...")',
    description: "summarize or process what was recorded; nothing is done on the screen",
  },
};

/** Other names of the same actions (the reference handler's `Type_Name`, `Interact`). */
const GLM_ALIASES: Record<string, string> = { typename: "type", interact: "takeover" };

/** Actions the prompt lists: those the device can do, and the user's take-over. */
const PROMPTED = new Set([
  "tap",
  "doubletap",
  "longpress",
  "type",
  "swipe",
  "launch",
  "back",
  "home",
  "wait",
  "takeover",
]);

function glmSystemPrompt(actions: readonly DeviceAction[]): string {
  const lines = Object.entries(GLM_ACTIONS)
    .filter(([key, a]) => PROMPTED.has(key) && (!a.device || findDeviceAction(actions, a.device)))
    .map(([, a]) => `- ${a.signature}: ${a.description}`);
  return [
    "You are a UI automation planner.",
    "You are an agent that operates the screen to complete the user's task. Each turn you see the current screenshot and your earlier answers; answer the next single action.",
    "",
    "Answer format:",
    "<think>your short reasoning</think>",
    "<answer>one action</answer>",
    "",
    "Actions:",
    ...lines,
    '- finish(message="..."): the task is done; the message is the answer to the task, if it asks for one',
    "",
    "Coordinates run from (0,0) at the top-left to (999,999) at the bottom-right of the screenshot.",
    "Only the actions above exist on this device.",
  ].join("\n");
}

function point(
  call: DialectCall,
  key: string,
  toRect: (raw: unknown) => DialectLocate["rect"],
  raw: string,
): DialectLocate {
  const value = call.args[key];
  if (value === undefined || value.trim() === "") {
    throw new ModelResponseError(
      `The action ${call.text} has no ${key}=[x,y]`,
      raw,
    );
  }
  return { prompt: call.text, rect: toRect(value) };
}

/** Seconds of a `Wait`: `"2 seconds"`, `"2"`, `2`; 1 when none is given or readable. */
function waitSeconds(duration: string | undefined): number {
  const n = Number(/\d+(?:\.\d+)?/.exec(duration ?? "")?.[0] ?? 1);
  return Number.isFinite(n) ? n : 1;
}

/** Reads one AutoGLM answer into a neutral step. */
function parseAutoGlmAnswer(
  raw: string,
  context: DialectParseContext,
  toRect: (raw: unknown, image: ModelImageSize) => DialectLocate["rect"],
): DialectStep {
  const text = raw.replace(/```[a-z]*\n?/gi, "");
  const think = /<think>([\s\S]*?)(?:<\/think>|(?=<answer>)|$)/i.exec(text)?.[1].trim();
  const answerMatch = /<answer>([\s\S]*?)(?:<\/answer>|$)/i.exec(text);
  const body = answerMatch ? answerMatch[1] : text.replace(/<think>[\s\S]*?<\/think>/i, "");
  const at = body.search(/\b(do|finish)\s*\(/);
  const call = at >= 0 ? readCall(body, at) : undefined;
  if (!call) {
    throw new ModelResponseError(
      `The AutoGLM answer has no action. Write <think>...</think><answer>do(action="...", ...)</answer> or <answer>finish(message="...")</answer>. The answer was ${
        quoteExcerpt(raw)
      }`,
      raw,
    );
  }
  // One action per answer: the reference parser cannot read two calls (it ends the task with
  // the answer's text), so a second call makes the answer unusable and it is asked again.
  const rest = body.slice(call.end);
  const second = rest.search(/\b(do|finish)\s*\(/);
  if (second >= 0) {
    const next = readCall(rest, second)!;
    throw new ModelResponseError(
      `The AutoGLM answer holds more than one action (${call.text}, then ${next.text}); ` +
        `answer exactly one do(...) or finish(...). The answer was ${quoteExcerpt(raw)}`,
      raw,
    );
  }
  const thought = think ||
    (answerMatch ? text.slice(0, answerMatch.index).trim() : body.slice(0, at).trim()) ||
    undefined;
  const base = {
    thought,
    log: call.text,
    historyAnswer: `<think>${thought ?? ""}</think><answer>${call.text}</answer>`,
  };
  if (call.name === "finish") {
    const message = call.args.message ?? call.positional[0];
    return { ...base, type: "finished", output: message?.trim() ? message : undefined };
  }
  const actionName = call.args.action ?? call.positional[0] ?? "";
  const key = actionName.toLowerCase().replace(/[\s_-]+/g, "");
  const known = GLM_ACTIONS[GLM_ALIASES[key] ?? key];
  if (call.name !== "do" || !known) {
    throw new ModelResponseError(
      `The AutoGLM action ${JSON.stringify(actionName)} is unknown; use one of ${
        Object.values(GLM_ACTIONS).map((a) => a.name).join(", ")
      }, or finish(message="..."). The answer was ${quoteExcerpt(raw)}`,
      raw,
    );
  }
  const rect = (v: unknown) => toRect(v, context.image);
  const device = () =>
    requireDeviceAction(context, known.device!, "AutoGLM", `${known.name} (${call.text})`);
  const one = (a: DialectDeviceAction): DialectStep => ({ ...base, type: "actions", actions: [a] });
  switch (known.name) {
    case "Tap":
    case "Double Tap":
    case "Long Press": {
      const action = device();
      return one({
        name: action.name,
        param: fillParams(action, [point(call, "element", rect, raw)]),
      });
    }
    case "Swipe": {
      const action = device();
      return one({
        name: action.name,
        param: fillParams(action, [
          point(call, "start", rect, raw),
          point(call, "end", rect, raw),
        ]),
      });
    }
    case "Type": {
      const action = device();
      const value = call.args.text ?? call.args.content ?? "";
      return one({ name: action.name, param: { value, mode: "replace" } });
    }
    case "Launch": {
      const action = device();
      const app = (call.args.app ?? call.args.app_name ?? "").trim();
      if (!app) {
        throw new ModelResponseError(
          `The action ${call.text} names no app: write do(action="Launch", app="name")`,
          raw,
        );
      }
      return one({ name: action.name, param: fillParams(action, [], {}, app) });
    }
    case "Back":
    case "Home":
      return one({ name: device().name, param: {} });
    case "Wait":
      return {
        ...base,
        type: "wait",
        ms: Math.min(MAX_WAIT_MS, Math.max(0, waitSeconds(call.args.duration) * 1000)),
      };
    case "Note":
    case "Call_API":
      // The reference handler does nothing on the screen for these; the step is kept.
      return { ...base, type: "actions", actions: [] };
    default:
      return {
        ...base,
        type: "error",
        message: `The AutoGLM model asks the user to take over: ${
          call.args.message ?? thought ?? "(no reason given)"
        }`,
      };
  }
}

function glmFamily(name: string): ModelFamily {
  const toPixelRect = (raw: unknown, image: ModelImageSize) =>
    normalizedToRect(readBoxNumbers(raw, name), image, name, raw);
  const planner: PlannerDialect = {
    name: "AutoGLM",
    messages: (input) => dialectConversation(glmSystemPrompt(input.actions), input, 0),
    parse: (raw, context) => parseAutoGlmAnswer(raw, context, toPixelRect),
  };
  return {
    name,
    boxConvention:
      "Write every bbox as [x1, y1, x2, y2]: left, top, right, bottom, each normalized to 0-999 of the image width (x) or height (y).",
    replanningCycleLimit: 100,
    toPixelRect,
    planner,
  };
}

/** `auto-glm`: AutoGLM. */
export const autoGlmFamily: ModelFamily = glmFamily("auto-glm");
/** `auto-glm-multilingual`: AutoGLM, multilingual. */
export const autoGlmMultilingualFamily: ModelFamily = glmFamily("auto-glm-multilingual");
