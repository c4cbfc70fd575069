/**
 * The actions every phone platform (MobileA, MobileB, MobileC) has, built once over what a phone
 * provides ({@link PhoneActionHost}): `Tap`, `DoubleClick`, `Input`, `ClearInput`,
 * `KeyboardPress`, `Scroll`, `Swipe`, `DragAndDrop`, `LongPress`, `Launch` and `Terminate`, and
 * the shape of a system button's action. A platform words what is its own through
 * {@link PhoneActionText} (its unit, defaults, key names and app targets) and adds its own
 * actions between and after them.
 *
 * Points handed to the host are logical pixels (dp, points, vp); durations are ms.
 *
 * @module
 */

import {
  clearInputAction,
  deviceAction,
  doubleClickAction,
  dragAndDropAction,
  inputAction,
  keyboardPressAction,
  longPressAction,
  scrollAction,
  swipeAction,
  tapAction,
} from "./actions.ts";
import { scrollStrokes, type Stroke, swipeEnds } from "./gestures.ts";
import { readLocateCenter, readPositiveNumberParam, readStringParam } from "./params.ts";
import { runClearInput, runInput, runKeyboardPress, type TextEntryHost } from "./text_entry.ts";
import type { DeviceAction, Point, Size } from "./types.ts";

/** What the shared phone actions need from a phone. Points are logical pixels. */
export interface PhoneActionHost extends TextEntryHost {
  /** The screen's logical size. */
  size(): Promise<Size>;
  /** Two quick taps at `point`. */
  doubleTap(point: Point): Promise<void>;
  /** One finger from `from` to `to` over `ms`. */
  swipe(from: Point, to: Point, ms: number): Promise<void>;
  /** The strokes of one `Scroll`, in order. Absent: each is a {@link PhoneActionHost.swipe}. */
  scroll?(strokes: readonly Stroke[]): Promise<void>;
  /** Picks up what is at `from` and drops it at `to` (the platform's hold and pace). */
  dragAndDrop(from: Point, to: Point): Promise<void>;
  /** Holds one finger at `point` for `ms`. */
  longPress(point: Point, ms: number): Promise<void>;
  /** What an app name stands for (the agent's `appNameMapping`); other targets as given. */
  resolveApp(target: string): string;
  /** Opens an app or a URL (`target` already resolved). */
  launch(target: string): Promise<void>;
  /** Stops an app (`target` already resolved). */
  terminate(target: string): Promise<unknown>;
}

/** A model-facing text: the action's description and one parameter's. */
export interface PhoneParamText {
  /** The action's description (one line for the model). */
  description: string;
  /** The parameter's description. */
  param: string;
}

/** How a phone platform words the shared actions, and its defaults. */
export interface PhoneActionText {
  /** The unit of lengths and points, as the model reads it (`"dp (logical pixels: ...)"`). */
  unit: string;
  /** Duration of a `Swipe` that gives none, ms. */
  swipeMs: number;
  /** `KeyboardPress`: its description, and `keyName`'s (the keys the platform has). */
  keyboardPress: PhoneParamText;
  /**
   * `LongPress`: the hold when `duration` is left out, ms; its description, when not the
   * default one; `fixedHold` when the platform holds for its system's time: `duration` is then
   * neither read nor checked, and the host gets `defaultDurationMs`.
   */
  longPress: { defaultDurationMs: number; description?: string; fixedHold?: boolean };
  /** `Launch`: its description, and `uri`'s (what the platform opens). */
  launch: PhoneParamText;
  /** `Terminate`: its description, and `uri`'s. */
  terminate: PhoneParamText;
}

/** The shared phone actions, in the planner's order within each group. */
export interface PhoneActions {
  /**
   * `Tap`, `DoubleClick`, `Input`, `ClearInput`, `KeyboardPress`, `Scroll`, `Swipe`,
   * `DragAndDrop`, `LongPress`.
   */
  screen: DeviceAction[];
  /** `Launch`, `Terminate`: app names go through {@link PhoneActionHost.resolveApp}. */
  apps: DeviceAction[];
}

/**
 * Builds the shared phone actions over `host`, worded by `text`. Each `call` throws a
 * `TypeError` naming the action and parameter for a malformed parameter, before touching the
 * phone.
 */
export function phoneActions(host: PhoneActionHost, text: PhoneActionText): PhoneActions {
  const { unit } = text;
  const hold = text.longPress;
  const screen = [
    tapAction(async (param) => await host.tap(readLocateCenter("Tap", param))),
    doubleClickAction(
      async (param) => await host.doubleTap(readLocateCenter("DoubleClick", param)),
      {
        description: "Double-tap an element (two quick taps).",
        params: { locate: "the element to double-tap" },
      },
    ),
    inputAction((param, context) => runInput(host, param, context)),
    clearInputAction((param) => runClearInput(host, param)),
    keyboardPressAction((param) => runKeyboardPress(host, param), {
      description: text.keyboardPress.description,
      params: {
        locate: "the element to tap before pressing; the focused element when left out",
        keyName: text.keyboardPress.param,
      },
    }),
    scrollAction(async (param) => {
      const strokes = scrollStrokes(param, await host.size());
      if (host.scroll) return await host.scroll(strokes);
      for (const { from, to, ms } of strokes) await host.swipe(from, to, ms);
    }, {
      unit,
      params: { locate: "a point inside the area to scroll; the screen center when left out" },
    }),
    swipeAction(async (param) => {
      const { from, to } = swipeEnds(param, await host.size());
      const ms = readPositiveNumberParam("Swipe", param, "duration") ?? text.swipeMs;
      await host.swipe(from, to, ms);
    }, { unit, defaultDurationMs: text.swipeMs }),
    dragAndDropAction(async (param) => {
      await host.dragAndDrop(
        readLocateCenter("DragAndDrop", param, "from"),
        readLocateCenter("DragAndDrop", param, "to"),
      );
    }, {
      description:
        "Drag an element and drop it onto another place: press and hold 'from', move to 'to', lift.",
    }),
    longPressAction(async (param) => {
      const point = readLocateCenter("LongPress", param);
      const ms = hold.fixedHold
        ? hold.defaultDurationMs
        : readPositiveNumberParam("LongPress", param, "duration") ?? hold.defaultDurationMs;
      await host.longPress(point, ms);
    }, {
      defaultDurationMs: hold.defaultDurationMs,
      description: hold.description ?? "Press and hold an element with a finger (a long press).",
    }),
  ];
  const uri = (description: string) => [
    { name: "uri", type: "string" as const, required: true, description },
  ];
  const apps = [
    deviceAction("Launch", text.launch.description, uri(text.launch.param), async (param) => {
      await host.launch(host.resolveApp(readStringParam("Launch", param, "uri", true)));
    }),
    deviceAction(
      "Terminate",
      text.terminate.description,
      uri(text.terminate.param),
      async (param) => {
        await host.terminate(host.resolveApp(readStringParam("Terminate", param, "uri", true)));
      },
    ),
  ];
  return { screen, apps };
}

/**
 * A system button's action (Back, Home, the app switcher): no parameters; `press` presses it.
 *
 * @param name the action's name, as the model writes it (`"MobileABackButton"`).
 * @param description one line for the model.
 * @param press presses the button.
 */
export function buttonAction(
  name: string,
  description: string,
  press: () => Promise<void>,
): DeviceAction {
  return deviceAction(name, description, [], () => press());
}
