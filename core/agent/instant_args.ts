/**
 * The arguments of the instant actions that take two signatures (`aiInput`, `aiKeyboardPress`,
 * `aiScroll`): the locate-first one and the deprecated one, read into the target, its locate
 * options and the action's parameters, checked before anything runs.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";
import type { ActionContext } from "../device/types.ts";
import { checkInputOptions } from "../device/options.ts";
import { isPromptObject } from "./call_checks.ts";
import type {
  AiInputOptions,
  AiKeyboardPressOptions,
  AiScrollOptions,
  LocateOptions,
  ScrollParam,
  TUserPrompt,
} from "../session/options.ts";

/** One instant action's arguments, read from either signature. */
export interface InstantArgs<O extends LocateOptions> {
  /** What to locate; undefined for the focused element or the pointer. */
  locate: TUserPrompt | undefined;
  /** The call's options, locate options included. */
  options: O;
  /** The action's parameters. */
  param: Record<string, unknown>;
  /** What the action gets besides its parameters. */
  context?: Omit<ActionContext, "signal">;
}

/**
 * `aiInput(locate, { value, mode })` or the deprecated `aiInput(value, locate, options)`.
 *
 * @throws {TypeError} when `value` is missing and `mode` is not `'clear'`.
 * @throws {RangeError} for an unknown `mode`, or an invalid `keyboardTypeDelay` /
 * `inputStrategy` combination.
 */
export function inputArgs(
  a: TUserPrompt | string | number,
  b: AiInputOptions | TUserPrompt,
  c?: AiInputOptions,
): InstantArgs<AiInputOptions> {
  let locate: TUserPrompt, opt: AiInputOptions;
  if (typeof b === "object" && b !== null && !isPromptObject(b)) {
    locate = a as TUserPrompt;
    opt = b;
  } else {
    locate = b as TUserPrompt;
    opt = { ...c, value: a as string | number };
  }
  checkInputOptions(opt);
  const mode = opt.mode === "append" ? "typeOnly" : opt.mode ?? "replace";
  if (!["replace", "typeOnly", "clear"].includes(mode)) {
    throw new SdkRangeError(
      `aiInput: mode must be 'replace', 'typeOnly' or 'clear': current value is ${
        JSON.stringify(opt.mode)
      }`,
    );
  }
  if (mode !== "clear" && (opt.value === undefined || opt.value === null)) {
    throw new SdkTypeError("aiInput needs a value: aiInput(locate, { value: 'text' })");
  }
  const value = mode === "clear" ? "" : String(opt.value);
  // Given values override the device's defaults; the device checks the combination (rule 5).
  const inputOptions = {
    ...(opt.keyboardTypeDelay !== undefined && { keyboardTypeDelay: opt.keyboardTypeDelay }),
    ...(opt.inputStrategy !== undefined && { inputStrategy: opt.inputStrategy }),
  };
  if (opt.secret !== undefined && typeof opt.secret !== "boolean") {
    throw new SdkTypeError(
      `aiInput: 'secret' must be a boolean: current value is ${JSON.stringify(opt.secret)}`,
    );
  }
  return {
    locate,
    options: opt,
    param: { value, mode },
    context: { inputOptions, ...(opt.secret === true && { secret: { value: true } }) },
  };
}

/**
 * `aiKeyboardPress(locate | undefined, { keyName })` or the deprecated
 * `aiKeyboardPress(keyName, locate?, options?)`.
 *
 * @throws {TypeError} when `keyName` is missing or empty.
 */
export function keyboardPressArgs(
  a: TUserPrompt | string | undefined,
  b?: AiKeyboardPressOptions | TUserPrompt,
  c?: LocateOptions,
): InstantArgs<AiKeyboardPressOptions> {
  let locate: TUserPrompt | undefined, opt: AiKeyboardPressOptions;
  if (typeof b === "object" && b !== null && "keyName" in b) {
    locate = a;
    opt = b;
  } else {
    locate = b as TUserPrompt | undefined;
    opt = { ...c, keyName: a as string };
  }
  if (typeof opt.keyName !== "string" || opt.keyName === "") {
    throw new SdkTypeError("aiKeyboardPress needs a keyName, e.g. { keyName: 'Enter' }");
  }
  return { locate, options: opt, param: { keyName: opt.keyName } };
}

/**
 * `aiScroll(locate | undefined, { direction, scrollType, distance })` or the deprecated
 * `aiScroll(scrollParam, locate?, options?)`; `direction` defaults to `'down'`, `scrollType` to
 * `'singleAction'`.
 */
export function scrollArgs(
  a: TUserPrompt | ScrollParam | undefined,
  b?: AiScrollOptions | TUserPrompt,
  c?: LocateOptions,
): InstantArgs<AiScrollOptions> {
  let locate: TUserPrompt | undefined, opt: AiScrollOptions;
  if (typeof a === "object" && a !== null && !isPromptObject(a)) {
    locate = b as TUserPrompt | undefined;
    opt = { ...c, ...(a as ScrollParam) };
  } else {
    locate = a as TUserPrompt | undefined;
    opt = (b as AiScrollOptions | undefined) ?? {};
  }
  const param: Record<string, unknown> = {
    direction: opt.direction ?? "down",
    scrollType: opt.scrollType ?? "singleAction",
  };
  if (opt.distance !== undefined && opt.distance !== null) param.distance = opt.distance;
  return { locate, options: opt, param };
}
