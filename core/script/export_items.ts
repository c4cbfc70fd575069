/**
 * The flow items of an exported script (docs/yaml-and-cli.md, "Exported scripts"): each device
 * action that ran becomes the instant item that performs it (`Tap` -> `aiTap`, `Input` ->
 * `aiInput`, `MobileABackButton` -> `back`, ...), its element named by its prompt and found by its
 * `locator`; and the values a run read from `${NAME}` are written back as `${NAME}`.
 *
 * @module
 */

import { describeTarget } from "../device/target_identity.ts";
import type { JournalAction, JournalTarget } from "../session/action_journal.ts";

/** Flow keys whose item plans with the model: compiled into the actions it performed. */
export const ACT_KEYS: readonly string[] = ["ai", "aiAct", "aiAction"];

/** Flow keys of instant actions: the item gets its element's locator. */
export const INSTANT_KEYS: readonly string[] = [
  "aiTap",
  "aiHover",
  "aiDoubleClick",
  "aiRightClick",
  "aiClearInput",
  "aiInput",
  "aiKeyboardPress",
  "aiScroll",
  "aiLongPress",
  "aiPinch",
];

/** Flow keys that ask the model about the screen: comments, unless the export keeps checks. */
export const CHECK_KEYS: readonly string[] = [
  "aiAssert",
  "aiWaitFor",
  "aiQuery",
  "aiBoolean",
  "aiNumber",
  "aiString",
  "aiAsk",
  "aiLocate",
];

/** Platform methods recorded as calls of their own, and whether their item takes a value. */
export const RECORDED_CALLS: Readonly<Record<string, boolean>> = {
  launch: true,
  terminate: true,
  runBridgeShell: true,
  runToolShell: true,
  back: false,
  home: false,
  recentApps: false,
  appSwitcher: false,
};

/** Hides the values of variables in the strings of an exported value. */
export type Hide = <T>(value: T) => T;

/**
 * Writes every value of `variables` found in a string as `${NAME}`, after writing a literal
 * `${NAME}` as `$${NAME}` (so that running the script types it as it was). A value of fewer than
 * 3 characters is replaced only where it is the whole string (`1` is in too many texts). With
 * `escape: false` (comments) literals are left alone.
 */
export function hider(variables: ReadonlyMap<string, string>, escape = true): Hide {
  const known = [...variables].filter(([, v]) => v !== "").sort((a, b) =>
    b[1].length - a[1].length
  );
  const hideText = (text: string): string => {
    let out = escape ? text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, "$$$${$1}") : text;
    for (const [name, value] of known) {
      if (out === value) return `\${${name}}`;
      if (value.length >= 3) out = out.split(value).join(`\${${name}}`);
    }
    return out;
  };
  const hide = (value: unknown): unknown =>
    typeof value === "string"
      ? hideText(value)
      : Array.isArray(value)
      ? value.map(hide)
      : value && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hide(v)]))
      : value;
  return hide as Hide;
}

/** A flow item to write, with the comment lines above it. */
export interface ExportItem {
  /** The item as data (`{ aiTap: "...", locator: {...} }`). */
  item: Record<string, unknown>;
  /** Comment lines above it. */
  comments: string[];
  /** Whether its element has a locator; `undefined` for an item that locates nothing. */
  located?: boolean;
  /** The element's prompt, when it has one. */
  prompt?: string;
}

/** The element of an item: its prompt, or what names it when the run had none. */
function promptOf(target: JournalTarget): string {
  if (target.prompt) return target.prompt;
  if (target.locator?.target) return describeTarget(target.locator.target);
  return `the element at (${Math.round(target.at[0])}, ${Math.round(target.at[1])})`;
}

/** Keys of an action's parameters the item takes beside the element, as they are. */
const PARAM_KEYS: Readonly<Record<string, readonly string[]>> = {
  aiScroll: ["direction", "scrollType", "distance"],
  aiLongPress: ["duration"],
  aiPinch: ["direction", "distance", "duration"],
};

/** The flow key of a device action, or `undefined` when no flow item performs it. */
function flowKeyOf(action: string): string | undefined {
  const instant: Record<string, string> = {
    Tap: "aiTap",
    Hover: "aiHover",
    DoubleClick: "aiDoubleClick",
    RightClick: "aiRightClick",
    ClearInput: "aiClearInput",
    Input: "aiInput",
    KeyboardPress: "aiKeyboardPress",
    Scroll: "aiScroll",
    LongPress: "aiLongPress",
    Pinch: "aiPinch",
    Launch: "launch",
    Terminate: "terminate",
    RunBridgeShell: "runBridgeShell",
    RunToolShell: "runToolShell",
  };
  if (Object.hasOwn(instant, action)) return instant[action];
  if (/BackButton$/.test(action)) return "back";
  if (/HomeButton$/.test(action)) return "home";
  if (/RecentAppsButton$/.test(action)) return "recentApps";
  if (/AppSwitcher$/.test(action)) return "appSwitcher";
  return undefined;
}

/** Whether a flow item performs `action` (see {@link itemOf}). */
export function canExport(action: JournalAction): boolean {
  const key = flowKeyOf(action.action);
  return key !== undefined && Object.keys(action.targets).every((name) => name === "locate");
}

/**
 * The flow item that performs `action` again, or `undefined` when none does (DragAndDrop, Swipe,
 * a custom action). Model-written text (prompts, typed values) goes through `hide`, and so does
 * the locator (its strings are read with `${NAME}` too).
 */
export function itemOf(action: JournalAction, hide: Hide): ExportItem | undefined {
  const key = flowKeyOf(action.action);
  if (!key || !canExport(action)) return undefined;
  const p = action.param;
  const target = action.targets.locate;
  const item: Record<string, unknown> = {};
  if (key === "launch" || key === "terminate") item[key] = hide(p.uri);
  else if (key === "runBridgeShell" || key === "runToolShell") item[key] = hide(p.command);
  else if (key === "aiKeyboardPress") {
    item[key] = target ? hide(promptOf(target)) : hide(p.keyName);
    if (target) item.keyName = hide(p.keyName);
  } else if (INSTANT_KEYS.includes(key)) item[key] = target ? hide(promptOf(target)) : null;
  else item[key] = null;
  if (key === "aiInput") {
    if (p.mode !== "clear") item.value = hide(p.value);
    if (p.mode !== undefined && p.mode !== "replace") item.mode = p.mode;
    const { keyboardTypeDelay, inputStrategy } = action.inputOptions ?? {};
    if (keyboardTypeDelay !== undefined) item.keyboardTypeDelay = keyboardTypeDelay;
    if (inputStrategy !== undefined) item.inputStrategy = inputStrategy;
  }
  for (const name of PARAM_KEYS[key] ?? []) {
    if (p[name] !== undefined && p[name] !== null) item[name] = p[name];
  }
  if (key === "aiScroll" && item.scrollType === "singleAction") delete item.scrollType;
  if (key === "aiTap" && action.fileChooserAccept) {
    item.fileChooserAccept = [...action.fileChooserAccept];
  }
  if (!target) return { item, comments: [] };
  if (target.locator) item.locator = hide(target.locator);
  return {
    item,
    comments: target.locator ? [] : [noLocatorComment(target)],
    located: target.locator !== undefined,
    prompt: String(item[key]),
  };
}

/** The comment of a step written without a locator. */
export function noLocatorComment(target: JournalTarget): string {
  return `no locator (${target.noLocator ?? "none was read"}): the model locates this element ` +
    `on every run`;
}
