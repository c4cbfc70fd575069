/**
 * Reading a JSON plan answer (docs/model-protocol.md, "Planning"): its action is looked up in the
 * device's action space and its parameters fitted to the action's own spec inside the answer's
 * reading step, so that an action type the device does not have, a missing or malformed
 * parameter, or a box that is not a box makes the answer unusable: it gets the one retry, then
 * a `ModelResponseError` quoting both answers.
 *
 * Surrounding blanks of keys (`" type"`, `"param "`, `" locate"`, `"bbox "`) and of the action
 * type and enum values (`" Tap"`, `"down "`) are trimmed; a string parameter's value (an `Input`
 * `value`) is kept exactly as written.
 *
 * @module
 */

import type { DeviceAction, Rect } from "../device/types.ts";
import { ModelResponseError } from "../errors.ts";
import type { ModelImageSize } from "../model/chat.ts";
import type { ModelFamily } from "../model/families/types.ts";
import { boxField } from "../model/families/box.ts";
import { checkParamShape } from "../device/param_shape.ts";

/** A planned action as the answer gives it, keys trimmed. */
export interface PlannedAction {
  /** The action type as written, trimmed. */
  type: string;
  /** Its parameters, keys trimmed. */
  param: Record<string, unknown>;
  /** What it does, when the answer says (an item of `actions` carries its own `log`). */
  log?: string;
}

/** A planned action fitted to the device. */
export interface FittedAction {
  /** The device's action. */
  action: DeviceAction;
  /**
   * Parameters fitted to the action's spec; locate parameters as `{ prompt, bbox? }` objects
   * (what the plan cache stores), the others converted and checked.
   */
  param: Record<string, unknown>;
  /** The rectangles of locate parameters that gave a `bbox`, in model-image pixels, by name. */
  rects: Record<string, Rect>;
}

/** The object with its keys trimmed (`{" type": 1}` -> `{type: 1}`); not recursive. */
function trimKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.trim(), v]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/**
 * The answer's `action`, or undefined when it is `null` or absent.
 *
 * @throws {ModelResponseError} when it is not `{"type": string, "param": object}`.
 */
export function readPlannedAction(
  json: Record<string, unknown>,
  raw: string,
): PlannedAction | undefined {
  const a = json.action;
  if (a === null || a === undefined) return undefined;
  const action = isObject(a) ? trimKeys(a) : undefined;
  if (!action || typeof action.type !== "string" || action.type.trim() === "") {
    throw new ModelResponseError(
      `The planner's "action" must be {"type": string, "param": object}, got ${JSON.stringify(a)}`,
      raw,
    );
  }
  const p = action.param;
  return { type: action.type.trim(), param: isObject(p) ? trimKeys(p) : {} };
}

/**
 * The answer's planned actions, in order: its `actions` list (the shape of a plan of several
 * actions), else its single `action`; empty when there is none. Items past `max` are returned
 * apart (`over`): they are not performed, and the report says so.
 *
 * @throws {ModelResponseError} when `actions` is not a list, or an item is not
 *   `{"type": string, "param": object}`.
 */
export function readPlannedActions(
  json: Record<string, unknown>,
  raw: string,
  max: number,
): { actions: PlannedAction[]; over: PlannedAction[] } {
  const list = json.actions;
  if (list === undefined || list === null) {
    const one = readPlannedAction(json, raw);
    return { actions: one ? [one] : [], over: [] };
  }
  if (!Array.isArray(list)) {
    throw new ModelResponseError(
      `The planner's "actions" must be a list of {"type": string, "param": object}, got ${
        JSON.stringify(list).slice(0, 200)
      }`,
      raw,
    );
  }
  const all = list.map((item) => {
    const planned = readPlannedAction({ action: item }, raw);
    if (!planned) {
      throw new ModelResponseError(
        `An item of the planner's "actions" is empty: ${JSON.stringify(item)}`,
        raw,
      );
    }
    const log = isObject(item) ? trimKeys(item).log : undefined;
    return typeof log === "string" && log.trim() ? { ...planned, log: log.trim() } : planned;
  });
  return { actions: all.slice(0, max), over: all.slice(max) };
}

/** How a plan's boxes are read. */
export interface FitOptions {
  /** The planning family, whose box convention reads each `bbox`. */
  family: ModelFamily;
  /** The image the model saw. */
  image: ModelImageSize;
  /** Whether the plan's boxes are used (false with deepThink or deepLocate: prompts only). */
  useBoxes: boolean;
}

/**
 * Fits `planned` to the device: finds its action, and checks and converts each parameter the
 * action declares (a numeric string for a number, `"true"`/`"false"` for a boolean, a number
 * for a string; enum values and the type trimmed). Locate parameters are `{ prompt, bbox }`
 * objects or a prompt string; their boxes are read with the family's convention.
 *
 * @throws {ModelResponseError} naming what does not fit: the device has no such action, a
 *   required parameter is missing, a value is of the wrong kind, or a box is not a box.
 */
export function fitPlannedAction(
  actions: readonly DeviceAction[],
  planned: PlannedAction,
  options: FitOptions,
  raw: string,
): FittedAction {
  // Before anything copies or logs them: a parameter nested 100,000 deep would overflow.
  checkParamShape(planned.type, planned.param, "the model's plan");
  const action = actions.find((a) => a.name === planned.type);
  const unusable = (why: string) => new ModelResponseError(why, raw);
  if (!action) {
    throw unusable(
      `This device has no action named ${JSON.stringify(planned.type)} (the planner's action ` +
        `type); its actions are: ${actions.map((a) => a.name).join(", ")}`,
    );
  }
  const param: Record<string, unknown> = { ...planned.param };
  const rects: Record<string, Rect> = {};
  for (const spec of action.params) {
    const v = param[spec.name];
    const where = `${action.name}.${spec.name}`;
    if (v === undefined || v === null) {
      if (spec.required) {
        throw unusable(`The planned action ${action.name} needs the parameter "${spec.name}"`);
      }
      continue;
    }
    const wrong = (kind: string) =>
      unusable(`The planned ${where} must be ${kind}, got ${JSON.stringify(v)}`);
    switch (spec.type) {
      case "enum": {
        const value = typeof v === "string" ? v.trim() : undefined;
        if (value === undefined || !(spec.values ?? []).includes(value)) {
          throw wrong(`one of ${(spec.values ?? []).join(", ")}`);
        }
        param[spec.name] = value;
        break;
      }
      case "number": {
        const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
        if (typeof n !== "number" || !Number.isFinite(n)) throw wrong("a number");
        param[spec.name] = n;
        break;
      }
      case "boolean": {
        const b = v === "true" ? true : v === "false" ? false : v;
        if (typeof b !== "boolean") throw wrong("true or false");
        param[spec.name] = b;
        break;
      }
      case "string":
        if (typeof v === "number" && Number.isFinite(v)) param[spec.name] = String(v);
        else if (typeof v !== "string") throw wrong("a string");
        break;
      case "files":
        if (
          typeof v !== "string" && !(Array.isArray(v) && v.every((f) => typeof f === "string"))
        ) throw wrong("a file path or an array of file paths");
        break;
      case "locate": {
        const locate = typeof v === "string"
          ? { prompt: v }
          : isObject(v)
          ? trimKeys(v)
          : undefined;
        if (!locate) throw wrong(`{"prompt": string, "bbox": [...]}`);
        const prompt = typeof locate.prompt === "string" ? locate.prompt.trim() : "";
        const bbox = boxField(locate, options.family);
        const boxed = options.useBoxes && bbox !== undefined && bbox !== null;
        if (!prompt && !boxed) {
          throw unusable(
            `The planned ${where} has ${
              options.useBoxes ? "neither a prompt nor a bbox" : "no prompt"
            }: ${JSON.stringify(v)}`,
          );
        }
        if (boxed) rects[spec.name] = options.family.toPixelRect(bbox, options.image);
        param[spec.name] = { ...locate, prompt };
        break;
      }
    }
  }
  return { action, param, rects };
}
