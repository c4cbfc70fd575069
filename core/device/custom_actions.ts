/**
 * `customActions` (spec 4.7-4.11): extra actions a caller adds to a device's action space, so the
 * planner offers them and `aiAct` can call them. Shared by every platform's device.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import type { ActionParamSpec, DeviceAction } from "./types.ts";

const PARAM_TYPES: readonly ActionParamSpec["type"][] = [
  "string",
  "number",
  "boolean",
  "locate",
  "enum",
];

/**
 * A device's action space with the caller's custom actions after its built-in ones. The custom
 * action objects are kept as given (their `call` runs with the action as `this`).
 *
 * @param owner the device class, named in errors (e.g. `"WebPageDevice"`).
 * @param builtIn the device's own actions.
 * @param customActions the `customActions` option; `undefined` adds nothing.
 * @returns a new array: `builtIn`, then `customActions` in order.
 * @throws {TypeError} naming the entry and field when `customActions` is not an array, an entry
 * has no `name`, `description`, `params` array or `call` function, a parameter spec is malformed,
 * or a name is used by a built-in action or by another custom action.
 */
export function withCustomActions(
  owner: string,
  builtIn: readonly DeviceAction[],
  // deno-lint-ignore no-explicit-any
  customActions: readonly DeviceAction<any>[] | undefined,
): DeviceAction[] {
  if (customActions === undefined) return [...builtIn];
  const fail = (what: string, value: unknown, fix: string): never => {
    throw new SdkTypeError(
      `Cannot create ${owner} as '${what}' ${fix}: current value is ${show(value)}`,
    );
  };
  if (!Array.isArray(customActions)) {
    fail("customActions", customActions, "must be an array of actions ({ name, call, ... })");
  }
  const taken = new Map(builtIn.map((a) => [a.name, "a built-in action"]));
  customActions.forEach((action, i) => {
    const at = `customActions[${i}]`;
    if (typeof action !== "object" || action === null) {
      fail(at, action, "must be an action object { name, description, params, call }");
    }
    if (typeof action.name !== "string" || action.name.trim() === "") {
      fail(`${at}.name`, action.name, "must be a non-empty string");
    }
    if (typeof action.call !== "function") {
      fail(`${at}.call`, action.call, "must be a function (param, context) => Promise<void>");
    }
    if (typeof action.description !== "string") {
      fail(
        `${at}.description`,
        action.description,
        "must be a string telling the model what it does",
      );
    }
    if (!Array.isArray(action.params)) {
      fail(`${at}.params`, action.params, "must be an array of parameter specs ([] for none)");
    }
    checkParams(at, action.params, fail);
    const clash = taken.get(action.name);
    if (clash) {
      fail(`${at}.name`, action.name, `must differ from ${clash} of the same name; rename it`);
    }
    taken.set(action.name, `${at}`);
  });
  return [...builtIn, ...customActions];
}

function checkParams(
  at: string,
  params: readonly ActionParamSpec[],
  fail: (what: string, value: unknown, fix: string) => never,
): void {
  const names = new Set<string>();
  params.forEach((p, j) => {
    const where = `${at}.params[${j}]`;
    if (typeof p !== "object" || p === null) {
      fail(where, p, "must be a parameter spec { name, type, required, description }");
    }
    if (typeof p.name !== "string" || p.name === "") {
      fail(`${where}.name`, p.name, "must be a non-empty string");
    }
    if (names.has(p.name)) fail(`${where}.name`, p.name, "must not repeat another parameter's");
    names.add(p.name);
    if (!PARAM_TYPES.includes(p.type)) {
      fail(`${where}.type`, p.type, `must be one of ${PARAM_TYPES.join(", ")}`);
    }
    if (typeof p.required !== "boolean") fail(`${where}.required`, p.required, "must be a boolean");
    if (typeof p.description !== "string") {
      fail(`${where}.description`, p.description, "must be a string");
    }
    if (
      p.type === "enum" &&
      !(Array.isArray(p.values) && p.values.length > 0 &&
        p.values.every((v) => typeof v === "string"))
    ) {
      fail(`${where}.values`, p.values, "must be a non-empty array of strings for an enum");
    }
  });
}

function show(value: unknown): string {
  if (typeof value === "function") return "a function";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
