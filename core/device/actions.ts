/**
 * The actions several platforms share (issue 12 item 4): `Tap`, `DoubleClick`, `Input`,
 * `ClearInput`, `KeyboardPress`, `Scroll`, `Swipe`, `DragAndDrop`, `LongPress` and `Pinch`.
 *
 * Each builder takes the platform's implementation and returns a {@link DeviceAction} with the
 * shared name, parameter schema and descriptions, so the planner sees the same action on every
 * platform. A platform words what differs on it (a mouse on the web, a finger on a phone) through
 * {@link SharedActionText}; lengths are in the unit it names (`"CSS pixels"` on the web, logical
 * pixels elsewhere). `params.ts` reads a `param` object back, checked.
 *
 * @module
 */

import type { ActionContext, ActionParamSpec, DeviceAction } from "./types.ts";
import type { ActionParams } from "./params.ts";

/**
 * A platform's implementation of a shared action. `param` is never null (an absent one is `{}`),
 * and the signal of `context` was checked just before.
 */
export type ActionImplementation = (param: ActionParams, context: ActionContext) => Promise<void>;

/** How a platform words a shared action where its default text does not fit. */
export interface SharedActionText {
  /** Replaces the action's description (one line for the model). */
  description?: string;
  /** Replaces parameter descriptions, by parameter name. */
  params?: Readonly<Record<string, string>>;
  /** Extra parameters after the shared ones (for example the web `Tap`'s `files`). */
  extraParams?: readonly ActionParamSpec[];
}

/** Text of an action with lengths: the unit its `distance` is in. */
export interface SharedLengthActionText extends SharedActionText {
  /** The unit of lengths, as the model reads it: `"CSS pixels"` on the web, `"pixels"` on a phone. */
  unit: string;
}

/** Text of an action that holds or moves for a while: its default duration. */
export interface SharedTimedActionText extends SharedActionText {
  /** Duration used when the planner leaves `duration` out, ms. */
  defaultDurationMs: number;
}

/** `mode` values of `Input`. `'append'` (deprecated) is accepted by devices, not advertised. */
export const INPUT_MODES: readonly ["replace", "typeOnly", "clear"] = [
  "replace",
  "typeOnly",
  "clear",
] as const;
/** `direction` values of `Scroll`: which hidden content to reveal. */
export const SCROLL_DIRECTIONS: readonly ["down", "up", "left", "right"] = [
  "down",
  "up",
  "left",
  "right",
] as const;
/** `scrollType` values of `Scroll`. */
export const SCROLL_TYPES: readonly [
  "singleAction",
  "scrollToBottom",
  "scrollToTop",
  "scrollToRight",
  "scrollToLeft",
] = ["singleAction", "scrollToBottom", "scrollToTop", "scrollToRight", "scrollToLeft"] as const;
/** `direction` values of `Swipe`: the way the finger moves. */
export const SWIPE_DIRECTIONS: readonly ["up", "down", "left", "right"] = [
  "up",
  "down",
  "left",
  "right",
] as const;
/** `direction` values of `Pinch`. */
export const PINCH_DIRECTIONS: readonly ["in", "out"] = ["in", "out"] as const;

function locateParam(required: boolean, description: string): ActionParamSpec {
  return { name: "locate", type: "locate", required, description };
}

function build(
  name: string,
  description: string,
  params: readonly ActionParamSpec[],
  run: ActionImplementation,
  text: SharedActionText | undefined,
): DeviceAction {
  const worded = params.map((p) => {
    const own = text?.params?.[p.name];
    return own === undefined ? p : { ...p, description: own };
  });
  return {
    name,
    description: text?.description ?? description,
    params: [...worded, ...(text?.extraParams ?? [])],
    call: async (param: ActionParams, context: ActionContext) => {
      context?.signal?.throwIfAborted();
      await run(param ?? {}, context ?? {});
    },
  };
}

/**
 * A platform's own action (`Launch`, `MobileABackButton`, ...): `run` gets the parameters (`{}`
 * when none) and the context, after a check that the call was not aborted.
 *
 * @param name the action's name, as the model writes it.
 * @param description one line for the model.
 * @param params its parameters.
 * @param run performs it.
 */
export function deviceAction(
  name: string,
  description: string,
  params: readonly ActionParamSpec[],
  run: ActionImplementation,
): DeviceAction {
  return build(name, description, params, run, undefined);
}

/** `Tap`: one tap or click on `locate` (required). */
export function tapAction(run: ActionImplementation, text?: SharedActionText): DeviceAction {
  return build(
    "Tap",
    "Tap an element once.",
    [
      locateParam(true, "the element to tap"),
    ],
    run,
    text,
  );
}

/** `DoubleClick`: two quick taps or clicks on `locate` (required). */
export function doubleClickAction(
  run: ActionImplementation,
  text?: SharedActionText,
): DeviceAction {
  return build(
    "DoubleClick",
    "Double-click an element.",
    [
      locateParam(true, "the element to double-click"),
    ],
    run,
    text,
  );
}

/**
 * `Input`: `value` (required string) into `locate` (optional: the focused element), with `mode`
 * one of {@link INPUT_MODES} (`replace` by default).
 */
export function inputAction(run: ActionImplementation, text?: SharedActionText): DeviceAction {
  return build(
    "Input",
    "Type text into a text field, replacing its content (default), appending to it, or clearing it.",
    [
      locateParam(false, "the field to type into; the focused element when left out"),
      { name: "value", type: "string", required: true, description: "the text to type" },
      {
        name: "mode",
        type: "enum",
        values: INPUT_MODES,
        required: false,
        description:
          "replace (default): replace the field's content; typeOnly: type after the existing content; clear: empty the field, value ignored",
      },
    ],
    run,
    text,
  );
}

/** `ClearInput`: empties the field at `locate` (required). */
export function clearInputAction(
  run: ActionImplementation,
  text?: SharedActionText,
): DeviceAction {
  return build(
    "ClearInput",
    "Empty a text field.",
    [
      locateParam(true, "the field to empty"),
    ],
    run,
    text,
  );
}

/** `KeyboardPress`: `keyName` (required), after a tap or click on `locate` when given. */
export function keyboardPressAction(
  run: ActionImplementation,
  text?: SharedActionText,
): DeviceAction {
  return build(
    "KeyboardPress",
    "Press a key or a key combination, such as Enter, Tab, Escape or Control+A.",
    [
      locateParam(false, "the element to click before pressing; the focused element when left out"),
      {
        name: "keyName",
        type: "string",
        required: true,
        description: "key name or combination joined with +: Enter, Tab, Escape, Control+A",
      },
    ],
    run,
    text,
  );
}

/**
 * `Scroll`: at `locate` (optional), `direction` ({@link SCROLL_DIRECTIONS}), `scrollType`
 * ({@link SCROLL_TYPES}) and `distance` in `text.unit`.
 */
export function scrollAction(
  run: ActionImplementation,
  text: SharedLengthActionText,
): DeviceAction {
  return build(
    "Scroll",
    "Scroll the page or a scrollable area, by a distance or to one of its ends.",
    [
      locateParam(
        false,
        "a point inside the area to scroll; the current pointer position when left out",
      ),
      {
        name: "direction",
        type: "enum",
        values: SCROLL_DIRECTIONS,
        required: false,
        description:
          "which hidden content to reveal for singleAction: down (default), up, left, right",
      },
      {
        name: "scrollType",
        type: "enum",
        values: SCROLL_TYPES,
        required: false,
        description:
          "singleAction (default): scroll by distance; or scrollToBottom, scrollToTop, scrollToRight, scrollToLeft",
      },
      {
        name: "distance",
        type: "number",
        required: false,
        description:
          `${text.unit} to scroll for singleAction; about 70% of the viewport when left out`,
      },
    ],
    run,
    text,
  );
}

/** `DragAndDrop`: from `from` to `to` (both required locates). */
export function dragAndDropAction(
  run: ActionImplementation,
  text?: SharedActionText,
): DeviceAction {
  return build(
    "DragAndDrop",
    "Drag an element and drop it onto another place.",
    [
      { name: "from", type: "locate", required: true, description: "the element to drag" },
      { name: "to", type: "locate", required: true, description: "where to drop it" },
    ],
    run,
    text,
  );
}

/** `LongPress`: holds `locate` (required) for `duration` ms (default `text.defaultDurationMs`). */
export function longPressAction(
  run: ActionImplementation,
  text: SharedTimedActionText,
): DeviceAction {
  return build(
    "LongPress",
    "Press and hold an element (a long press).",
    [
      { name: "locate", type: "locate", required: true, description: "the element to hold" },
      {
        name: "duration",
        type: "number",
        required: false,
        description: `how long to hold, in ms; ${text.defaultDurationMs} when left out`,
      },
    ],
    run,
    text,
  );
}

/**
 * `Swipe`: one finger from `start` (optional: the screen center) to `end`, or along `direction`
 * ({@link SWIPE_DIRECTIONS}) by `distance` in `text.unit`, over `duration` ms.
 */
export function swipeAction(
  run: ActionImplementation,
  text: SharedLengthActionText & SharedTimedActionText,
): DeviceAction {
  return build(
    "Swipe",
    "Swipe with one finger (touch), e.g. to move a carousel or a touch-only list.",
    [
      {
        name: "start",
        type: "locate",
        required: false,
        description: "where the finger touches down; the screen center when left out",
      },
      {
        name: "end",
        type: "locate",
        required: false,
        description: "where the finger lifts; direction and distance are ignored when given",
      },
      {
        name: "direction",
        type: "enum",
        values: SWIPE_DIRECTIONS,
        required: false,
        description:
          "the way the finger moves (left moves the content left, showing what is on its right); needed without end",
      },
      {
        name: "distance",
        type: "number",
        required: false,
        description: `${text.unit} the finger moves; half the screen along direction when left out`,
      },
      {
        name: "duration",
        type: "number",
        required: false,
        description: `how long the movement takes, in ms; ${text.defaultDurationMs} when left out`,
      },
    ],
    run,
    text,
  );
}

/**
 * `Pinch`: two fingers around `locate` (optional: the screen center), `direction`
 * ({@link PINCH_DIRECTIONS}, required), the gap changing by `distance` in `text.unit`.
 */
export function pinchAction(
  run: ActionImplementation,
  text: SharedLengthActionText & SharedTimedActionText,
): DeviceAction {
  return build(
    "Pinch",
    "Pinch with two fingers (touch) to zoom: out spreads the fingers (zoom in), in brings them together (zoom out).",
    [
      {
        name: "locate",
        type: "locate",
        required: false,
        description: "the element to pinch on; the screen center when left out",
      },
      {
        name: "direction",
        type: "enum",
        values: PINCH_DIRECTIONS,
        required: true,
        description: "out: spread the fingers (zoom in); in: bring them together (zoom out)",
      },
      {
        name: "distance",
        type: "number",
        required: false,
        description:
          `${text.unit} by which the gap between the fingers changes; a quarter of the shorter screen side when left out`,
      },
      {
        name: "duration",
        type: "number",
        required: false,
        description: `how long the fingers move, in ms; ${text.defaultDurationMs} when left out`,
      },
    ],
    run,
    text,
  );
}
