/**
 * The MobileB action space (spec 4.9): the shared actions of `@sdk/core` worded for an iPhone,
 * with lengths in points, and the iOS ones (`Launch`, `Terminate`, `RunDriverRequest`,
 * `MobileBHomeButton`, `MobileBAppSwitcher`). The device gives what they need through
 * {@link MobileBActionHost}; every point they hand it is logical (points).
 *
 * @module
 */

import type {
  ActionContext,
  ActionParams,
  DeviceAction,
  InputActionOptions,
  LocatedElement,
  Point,
  Size,
} from "@sdk/core";
import {
  clearInputAction,
  deviceAction,
  doubleClickAction,
  dragAndDropAction,
  INPUT_MODES,
  inputAction,
  keyboardPressAction,
  longPressAction,
  PINCH_DIRECTIONS,
  pinchAction,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
  scrollAction,
  scrollStrokes,
  swipeAction,
  swipeEnds,
  tapAction,
} from "@sdk/core";
import { holdActions, pinchActions, pinchPath, type W3CActions } from "./gestures.ts";
import { iosKeyText } from "./keys.ts";
import { DRIVER_REQUEST_METHODS, type DriverRequestMethod } from "./wda.ts";

/** Default hold of `LongPress` on MobileB, ms (spec 4.2). */
export const DEFAULT_LONG_PRESS_MS = 1000;
/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;
/** Default duration of `Pinch`, ms (spec 4.2). */
export const DEFAULT_PINCH_MS = 500;

// A scroll or a drag rests its finger before lifting so that what moved stops where it did.
const SCROLL_REST_MS = 100;
const DRAG_MOVE_MS = 1000;
// iOS picks an item up for dragging after a long press.
const DRAG_PICK_UP_MS = 800;
// The gap between the fingers of a pinch given by direction and distance, before it changes.
const PINCH_BASE_GAP = 40;

/** What the actions need from the device. Points are logical (WDA's unit). */
export interface MobileBActionHost {
  /** Dismiss the keyboard after `Input` and `ClearInput`. */
  readonly autoDismissKeyboard: boolean;
  /** The window in points and the scale. */
  screen(): Promise<{ width: number; height: number; scale: number }>;
  /** The window in points and the scale as the device's size. */
  size(): Promise<Size>;
  /** A point snapped to the physical pixel grid and kept on the screen. */
  point(point: Point): Promise<Point>;
  /** `taps` quick taps at a point. */
  tapAt(point: Point, taps?: number): Promise<void>;
  /** One finger from `from` to `to` over `ms`, resting before and after the move. */
  drag(from: Point, to: Point, ms: number, holdBefore?: number, holdAfter?: number): Promise<void>;
  /** Sends W3C actions. */
  perform(actions: W3CActions, signal?: AbortSignal): Promise<void>;
  /** Types text with WDA's keys endpoint, in one call. */
  keys(text: string): Promise<void>;
  /** Types text with the input strategy and delay in effect. */
  typeText(text: string, overrides?: InputActionOptions, signal?: AbortSignal): Promise<void>;
  /** Empties the focused field. */
  clearField(): Promise<void>;
  /** Dismisses the keyboard (best effort). */
  dismissKeyboard(): Promise<void>;
  /** The bundle id for an app name (the agent's `appNameMapping`). */
  resolveApp(target: string): string;
  /** Opens a URL or an app. */
  launch(target: string): Promise<void>;
  /** Terminates an app. */
  terminate(bundleId: string): Promise<unknown>;
  /** One request to WDA. */
  runDriverRequest(method: DriverRequestMethod, endpoint: string, data?: unknown): Promise<unknown>;
  /** The Home screen. */
  home(): Promise<void>;
  /** The app switcher gesture. */
  appSwitcher(): Promise<void>;
}

/**
 * The MobileB actions, in the planner's order: `Tap`, `DoubleClick`, `Input`, `ClearInput`,
 * `KeyboardPress`, `Scroll`, `Swipe`, `DragAndDrop`, `LongPress`, `Pinch`, `Launch`,
 * `Terminate`, `RunDriverRequest`, `MobileBHomeButton`, `MobileBAppSwitcher`. Each `call` throws
 * a `TypeError` naming the action and parameter for a malformed parameter.
 */
export function mobileBActions(host: MobileBActionHost): DeviceAction[] {
  const unit = "points (logical pixels: screenshot pixels / screen scale)";
  const plain = deviceAction;
  const at = (action: string, param: ActionParams, name = "locate"): LocatedElement =>
    readLocateParam(action, param, true, name)!;
  const pinchBase = pinchAction(async (param, context) => await pinch(host, param, context), {
    unit,
    defaultDurationMs: DEFAULT_PINCH_MS,
    extraParams: [{
      name: "scale",
      type: "number",
      required: false,
      description:
        "zoom factor: > 1 zooms in (fingers spread), < 1 zooms out; replaces direction and distance",
    }],
  });
  return [
    tapAction(async (param) => await host.tapAt(at("Tap", param).center)),
    doubleClickAction(async (param) => await host.tapAt(at("DoubleClick", param).center, 2), {
      description: "Double-tap an element (two quick taps).",
      params: { locate: "the element to double-tap" },
    }),
    inputAction(async (param, context) => {
      const target = readLocateParam("Input", param, false);
      const mode = readEnumParam("Input", param, "mode", [...INPUT_MODES, "append"], "replace");
      const value = readStringParam("Input", param, "value", mode !== "clear") ?? "";
      if (target) await host.tapAt(target.center);
      if (mode !== "typeOnly" && mode !== "append") await host.clearField();
      if (mode !== "clear") await host.typeText(value, context.inputOptions, context.signal);
      if (host.autoDismissKeyboard) await host.dismissKeyboard();
    }),
    clearInputAction(async (param) => {
      await host.tapAt(at("ClearInput", param).center);
      await host.clearField();
      if (host.autoDismissKeyboard) await host.dismissKeyboard();
    }),
    keyboardPressAction(async (param) => {
      const target = readLocateParam("KeyboardPress", param, false);
      const text = iosKeyText(readStringParam("KeyboardPress", param, "keyName", true)!);
      if (target) await host.tapAt(target.center);
      await host.keys(text);
    }, {
      description:
        "Press a key of the on-screen keyboard: Enter, Backspace, Tab, Space or a character.",
      params: {
        locate: "the element to tap before pressing; the focused element when left out",
        keyName: "one key name: Enter, Backspace, Tab, Space, a, 7",
      },
    }),
    scrollAction((param) => scroll(host, param), {
      unit,
      params: { locate: "a point inside the area to scroll; the screen center when left out" },
    }),
    swipeAction(async (param) => {
      const { from, to } = swipeEnds(param, await host.size());
      const ms = readPositiveNumberParam("Swipe", param, "duration") ?? DEFAULT_SWIPE_MS;
      await host.drag(from, to, ms);
    }, { unit, defaultDurationMs: DEFAULT_SWIPE_MS }),
    dragAndDropAction(async (param) => {
      await host.drag(
        at("DragAndDrop", param, "from").center,
        at("DragAndDrop", param, "to").center,
        DRAG_MOVE_MS,
        DRAG_PICK_UP_MS,
        SCROLL_REST_MS,
      );
    }, {
      description:
        "Drag an element and drop it onto another place: press and hold 'from', move to 'to', lift.",
    }),
    longPressAction(async (param) => {
      const point = await host.point(at("LongPress", param).center);
      const ms = readPositiveNumberParam("LongPress", param, "duration") ??
        DEFAULT_LONG_PRESS_MS;
      await host.perform(holdActions(point, ms));
    }, {
      defaultDurationMs: DEFAULT_LONG_PRESS_MS,
      description: "Press and hold an element with a finger (a long press).",
    }),
    {
      ...pinchBase,
      // `scale` may stand instead of `direction` (spec 4.9: scale > 1 zooms in).
      params: pinchBase.params.map((p) =>
        p.name === "direction"
          ? { ...p, required: false, description: `${p.description}; needed without scale` }
          : p
      ),
    },
    plain("Launch", "Open an app, a web page, or a URL of an app's scheme.", [{
      name: "uri",
      type: "string",
      required: true,
      description:
        "an app name (Settings), a bundle id (com.apple.Preferences), a web URL (https://...) or a URL scheme (tel:123, mailto:a@b.c)",
    }], async (param) => {
      await host.launch(host.resolveApp(readStringParam("Launch", param, "uri", true)!));
    }),
    plain("Terminate", "Close (terminate) an app.", [{
      name: "uri",
      type: "string",
      required: true,
      description: "the app's name or bundle id",
    }], async (param) => {
      await host.terminate(host.resolveApp(readStringParam("Terminate", param, "uri", true)!));
    }),
    plain(
      "RunDriverRequest",
      "Send one request to WebDriverAgent, the iOS automation service.",
      [
        {
          name: "method",
          type: "enum",
          values: DRIVER_REQUEST_METHODS,
          required: true,
          description: "the HTTP method",
        },
        {
          name: "endpoint",
          type: "string",
          required: true,
          description: "the route, e.g. /status or /session/:sessionId/wda/apps/state",
        },
        {
          name: "data",
          type: "string",
          required: false,
          description: "the JSON body, as JSON text",
        },
      ],
      async (param) => {
        const method = readEnumParam(
          "RunDriverRequest",
          param,
          "method",
          DRIVER_REQUEST_METHODS,
          "GET",
        );
        const endpoint = readStringParam("RunDriverRequest", param, "endpoint", true)!;
        await host.runDriverRequest(method, endpoint, readJsonParam(param.data));
      },
    ),
    plain(
      "MobileBHomeButton",
      "Go to the Home screen (the Home button).",
      [],
      () => host.home(),
    ),
    plain(
      "MobileBAppSwitcher",
      "Open the app switcher (the recently used apps).",
      [],
      () => host.appSwitcher(),
    ),
  ];
}

async function pinch(
  host: MobileBActionHost,
  param: ActionParams,
  context: ActionContext,
): Promise<void> {
  const screen = await host.screen();
  const center = readLocateParam("Pinch", param, false)?.center ??
    [screen.width / 2, screen.height / 2];
  const ms = readPositiveNumberParam("Pinch", param, "duration") ?? DEFAULT_PINCH_MS;
  const scale = readPositiveNumberParam("Pinch", param, "scale");
  let start: number, factor: number;
  if (scale !== undefined) {
    start = Math.min(screen.width, screen.height) / 4;
    factor = scale;
  } else {
    if (param.direction === undefined || param.direction === null) {
      throw new TypeError(
        "Cannot run Pinch: give 'direction' ('in' or 'out') or 'scale' (> 1 zooms in)",
      );
    }
    const direction = readEnumParam("Pinch", param, "direction", PINCH_DIRECTIONS, "out");
    const distance = readPositiveNumberParam("Pinch", param, "distance") ??
      Math.min(screen.width, screen.height) / 4;
    const wide = PINCH_BASE_GAP + distance;
    start = direction === "out" ? PINCH_BASE_GAP : wide;
    factor = direction === "out" ? wide / PINCH_BASE_GAP : PINCH_BASE_GAP / wide;
  }
  const path = pinchPath(await host.point(center), start, factor, screen);
  const snap = async (pair: [Point, Point]): Promise<[Point, Point]> => [
    await host.point(pair[0]),
    await host.point(pair[1]),
  ];
  await host.perform(
    pinchActions({ from: await snap(path.from), to: await snap(path.to) }, ms),
    context.signal,
  );
}

// The shared scroll strokes; a single scroll rests its finger before lifting so that the list
// stops where the finger did (no fling).
async function scroll(host: MobileBActionHost, param: ActionParams): Promise<void> {
  const strokes = scrollStrokes(param, await host.size());
  const single = strokes.length === 1;
  for (const { from, to, ms } of strokes) {
    await host.drag(from, to, ms, 0, single ? SCROLL_REST_MS : 0);
  }
}

// `RunDriverRequest`'s `data`: JSON text (the planner's parameters are flat values).
function readJsonParam(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return undefined;
  try {
    return JSON.parse(String(value));
  } catch {
    throw new TypeError(
      `Cannot run RunDriverRequest: 'data' must be JSON text: current value is ${
        JSON.stringify(String(value).slice(0, 80))
      }`,
    );
  }
}
