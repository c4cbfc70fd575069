/**
 * The test model's planning dialects: how a UI-TARS ("family-T") or AutoGLM ("family-G") model
 * reads a planning conversation and answers it (MODEL_FAMILIES.md, docs/model-protocol.md,
 * "Planning dialects"). Written from those documents alone, independently of the SDK's own
 * dialect parsers, because the test model is the oracle they are checked against.
 * Private to `@sdk/core/testing`.
 *
 * @module
 */

import { type ImageSize, type ReceivedScreenshot, receivedScreenshot } from "./_image.ts";
import { type ParsedRequest, ProtocolError, readBlock, splitContent } from "./_request.ts";
import type { PlanCall } from "./_request.ts";
import type { TargetBox } from "./_bbox.ts";

/** The dialect families the test model speaks. */
export type DialectFamily =
  | "vlm-ui-tars"
  | "vlm-ui-tars-doubao"
  | "vlm-ui-tars-doubao-1.5"
  | "auto-glm"
  | "auto-glm-multilingual";

/** The dialect families, for validation. */
export const DIALECT_FAMILIES: readonly DialectFamily[] = [
  "vlm-ui-tars",
  "vlm-ui-tars-doubao",
  "vlm-ui-tars-doubao-1.5",
  "auto-glm",
  "auto-glm-multilingual",
];

/** The two dialects. */
export type Dialect = "ui-tars" | "auto-glm";

/** The dialect of a family value, or undefined for the JSON-protocol families. */
export function dialectOf(family: string): Dialect | undefined {
  if (!(DIALECT_FAMILIES as readonly string[]).includes(family)) return undefined;
  return family.startsWith("auto-glm") ? "auto-glm" : "ui-tars";
}

function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}

/** Image pixel -> the dialect's normalized scale: 0-1000 (UI-TARS) or 0-999 (AutoGLM). */
function norm(dialect: Dialect, px: number, size: number): number {
  const v = size <= 1 ? 0 : Math.round(px * 1000 / (size - 1));
  return clamp(v, 0, dialect === "auto-glm" ? 999 : 1000);
}

/**
 * A locate answer's `bbox` for a dialect family (the locate call itself uses the JSON protocol):
 * `[x1, y1, x2, y2]` normalized to 0-1000 (UI-TARS) or 0-999 (AutoGLM).
 */
export function encodeDialectBox(
  dialect: Dialect,
  box: TargetBox,
  image: ImageSize,
  scale: number,
): number[] {
  const x1 = clamp(box.left * scale, 0, image.width - 1);
  const y1 = clamp(box.top * scale, 0, image.height - 1);
  const x2 = clamp((box.left + box.width) * scale, 0, image.width - 1);
  const y2 = clamp((box.top + box.height) * scale, 0, image.height - 1);
  return [
    norm(dialect, x1, image.width),
    norm(dialect, y1, image.height),
    norm(dialect, x2, image.width),
    norm(dialect, y2, image.height),
  ];
}

/** The center of a CSS box as the dialect's `[x, y]`. */
export function dialectPoint(
  dialect: Dialect,
  box: TargetBox,
  image: ImageSize,
  scale: number,
): [number, number] {
  const cx = clamp((box.left + box.width / 2) * scale, 0, image.width - 1);
  const cy = clamp((box.top + box.height / 2) * scale, 0, image.height - 1);
  return [norm(dialect, cx, image.width), norm(dialect, cy, image.height)];
}

interface Part {
  type?: unknown;
  text?: unknown;
  image_url?: { url?: unknown } | string;
}
interface Message {
  role?: unknown;
  content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Part[]).filter((p) => p?.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string).join("\n");
}

function imageOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const p of content as Part[]) {
    if (p?.type !== "image_url") continue;
    const url = typeof p.image_url === "string" ? p.image_url : p.image_url?.url;
    if (typeof url === "string") return url;
  }
  return undefined;
}

const PLANNER_LINE = "You are a UI automation planner.";

/**
 * Reads a planning conversation the way a dialect model does: the task from the first user
 * message's `<instruction>` (and `<context>`), the earlier turns from the assistant messages, the
 * current screenshot from the last user message that holds an image (with the prompt's named
 * images after it), and, when messages follow that one, the SDK's feedback from the last user
 * message. `undefined` when the request is not a
 * planning call (locate and the other kinds use the JSON protocol).
 *
 * @throws {ProtocolError} when the conversation breaks the dialect protocol.
 */
export function readDialectPlanRequest(body: Record<string, unknown>): ParsedRequest | undefined {
  const messages = Array.isArray(body.messages) ? body.messages as Message[] : [];
  const system = messages.find((m) => m?.role === "system");
  const systemPrompt = textOf(system?.content);
  if (!systemPrompt.trimStart().startsWith(PLANNER_LINE)) return undefined;
  const users = messages.filter((m) => m?.role === "user");
  if (users.length === 0) throw new ProtocolError("`messages` has no user message");
  const firstText = textOf(users[0].content);
  const instruction = readBlock(firstText, "instruction");
  if (instruction === undefined) {
    throw new ProtocolError("plan call without an <instruction> block in the first user message");
  }
  let current = -1;
  messages.forEach((m, i) => {
    if (m?.role === "user" && imageOf(m.content)) current = i;
  });
  if (current < 0) throw new ProtocolError("the planning conversation carries no screenshot");
  const currentContent = splitContent(messages[current].content);
  const url = currentContent.unnamed[0];
  if (url === undefined) {
    throw new ProtocolError("the current message carries named images but no screenshot");
  }
  let image: ReceivedScreenshot;
  try {
    image = receivedScreenshot(url);
  } catch (error) {
    throw new ProtocolError((error as Error).message);
  }
  const stated = /The screenshot is (\d+) x (\d+) pixels\./.exec(textOf(messages[current].content));
  if (!stated || Number(stated[1]) !== image.width || Number(stated[2]) !== image.height) {
    throw new ProtocolError(
      `the current screenshot's message must state "The screenshot is ${image.width} x ${image.height} pixels."`,
    );
  }
  const history = messages.slice(0, current).filter((m) => m?.role === "assistant")
    .map((m) => textOf(m.content));
  const call: PlanCall = {
    kind: "plan",
    model: typeof body.model === "string" ? body.model : "",
    systemPrompt,
    userText: firstText,
    image,
    promptImages: currentContent.promptImages,
    instruction,
    history,
    // The dialects plan one action an answer.
    maxActions: 1,
  };
  const context = readBlock(firstText, "context");
  if (context !== undefined) call.context = context;
  const after = messages.slice(current + 1).filter((m) => m?.role === "user");
  if (after.length) call.feedback = textOf(after[after.length - 1].content);
  return {
    call,
    imageCount: messages.filter((m) => imageOf(m?.content)).length,
    textLength: messages.reduce((n, m) => n + textOf(m?.content).length, 0),
  };
}

/** What a script answered to a planning call (the fields the dialects use). */
export interface DialectPlanReply {
  thought?: string;
  log: string;
  action?: { type: string; param?: Record<string, unknown> } | null;
  finished?: boolean;
  output?: string;
  error?: string;
}

/** Turns a scripted `{ prompt, box }` into the dialect's `[x, y]`. */
export type PointOf = (box: TargetBox) => Promise<[number, number]>;

function isLocate(v: unknown): v is { prompt: string; box: TargetBox } {
  return !!v && typeof v === "object" && !!(v as { box?: unknown }).box &&
    typeof (v as { box: TargetBox }).box.left === "number";
}

const single = (s: string) =>
  "'" + s.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n") + "'";
const double = (s: string) => JSON.stringify(s);

/** `Control+C` -> `ctrl c`, the way UI-TARS writes a hotkey. */
function tarsKeys(keyName: string): string {
  const names: Record<string, string> = {
    control: "ctrl",
    meta: "cmd",
    escape: "esc",
    arrowup: "up",
    arrowdown: "down",
    arrowleft: "left",
    arrowright: "right",
  };
  return keyName.split("+").map((k) => names[k.toLowerCase()] ?? k.toLowerCase()).join(" ");
}

const TARS_NAMES: Record<string, string> = {
  Tap: "click",
  DoubleClick: "left_double",
  RightClick: "right_single",
  Hover: "hover",
  LongPress: "long_press",
};
const GLM_NAMES: Record<string, string> = {
  Tap: "Tap",
  DoubleClick: "Double Tap",
  LongPress: "Long Press",
};

/**
 * The system button a device action name stands for, by the SDK's documented naming convention
 * (docs/model-protocol.md, "Planning dialects"): `GoBack` or `...BackButton` is back,
 * `...HomeButton` home.
 */
function systemRole(type: string): "back" | "home" | undefined {
  if (type === "GoBack" || type.endsWith("BackButton")) return "back";
  if (type.endsWith("HomeButton")) return "home";
  return undefined;
}

/**
 * Writes a script's reply as a dialect answer. The action types the SDK's action space uses
 * (`Tap`, `DoubleClick`, `RightClick`, `Hover`, `Input` without a locate, `KeyboardPress`,
 * `Scroll`, `DragAndDrop`; a platform's back and home buttons, `GoBack`, `Launch` with a `uri`)
 * become the dialect's own actions; any other type is written as a dialect action of that name
 * (`press_back`, `Back`, `Launch`, `wait`, ...) with its parameters.
 *
 * @throws {Error} for an `Input` with a locate (the dialects type into the focused element:
 *   script a `Tap` on the field first).
 */
export async function renderDialectPlan(
  dialect: Dialect,
  reply: DialectPlanReply,
  pointOf: PointOf,
): Promise<string> {
  const thought = reply.thought ?? `Scripted step: ${reply.log}`;
  const param = reply.action?.param ?? {};
  const pointArg = async (key: string): Promise<[number, number] | undefined> => {
    const v = param[key];
    return isLocate(v) ? await pointOf(v.box) : undefined;
  };
  if (dialect === "ui-tars") {
    const answer = (action: string) => `Thought: ${thought}\nAction: ${action}`;
    if (reply.error !== undefined) return answer("call_user()");
    if (!reply.action) {
      return answer(
        reply.output !== undefined ? `finished(content=${single(reply.output)})` : "finished()",
      );
    }
    const box = (p: [number, number]) => `'(${p[0]},${p[1]})'`;
    const { type } = reply.action;
    const role = systemRole(type);
    if (role === "back") return answer("press_back()");
    if (role === "home") return answer("press_home()");
    if (type === "Launch" && typeof param.uri === "string") {
      return answer(`open_app(app_name=${single(param.uri)})`);
    }
    const at = await pointArg("locate");
    if (TARS_NAMES[type]) {
      if (!at) throw new Error(`${type} needs a { prompt, box } locate`);
      return answer(`${TARS_NAMES[type]}(start_box=${box(at)})`);
    }
    switch (type) {
      case "Input":
        if (at) throw new Error("UI-TARS types into the focused element: script a Tap first");
        return answer(`type(content=${single(String(param.value ?? ""))})`);
      case "KeyboardPress":
        return answer(`hotkey(key=${single(tarsKeys(String(param.keyName ?? "")))})`);
      case "Scroll":
        return answer(
          `scroll(${at ? `start_box=${box(at)}, ` : ""}direction=${
            single(String(param.direction ?? "down"))
          })`,
        );
      case "DragAndDrop": {
        const from = await pointArg("from"), to = await pointArg("to");
        if (!from || !to) throw new Error("DragAndDrop needs `from` and `to` locates");
        return answer(`drag(start_box=${box(from)}, end_box=${box(to)})`);
      }
    }
    const args: string[] = [];
    for (const [k, v] of Object.entries(param)) {
      const p = isLocate(v) ? await pointOf(v.box) : undefined;
      args.push(`${k}=${p ? box(p) : single(String(v))}`);
    }
    return answer(`${type}(${args.join(", ")})`);
  }
  // AutoGLM
  const answer = (action: string) => `<think>${thought}</think>\n<answer>${action}</answer>`;
  if (reply.error !== undefined) {
    return answer(`do(action="Take_over", message=${double(reply.error)})`);
  }
  if (!reply.action) return answer(`finish(message=${double(reply.output ?? "")})`);
  const { type } = reply.action;
  const role = systemRole(type);
  if (role) return answer(`do(action="${role === "back" ? "Back" : "Home"}")`);
  if (type === "Launch" && typeof param.uri === "string") {
    return answer(`do(action="Launch", app=${double(param.uri)})`);
  }
  const at = await pointArg("locate");
  const pt = (p: [number, number]) => `[${p[0]},${p[1]}]`;
  if (GLM_NAMES[type]) {
    if (!at) throw new Error(`${type} needs a { prompt, box } locate`);
    return answer(`do(action="${GLM_NAMES[type]}", element=${pt(at)})`);
  }
  if (type === "Input") {
    if (at) throw new Error("AutoGLM types into the focused field: script a Tap first");
    return answer(`do(action="Type", text=${double(String(param.value ?? ""))})`);
  }
  const args = [`action=${double(type)}`];
  for (const [k, v] of Object.entries(param)) {
    const p = isLocate(v) ? await pointOf(v.box) : undefined;
    args.push(`${k}=${p ? pt(p) : double(String(v))}`);
  }
  return answer(`do(${args.join(", ")})`);
}
