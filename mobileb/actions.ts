/**
 * The MobileB action space (spec 4.9): the shared actions of `@sdk/core` worded for an iPhone,
 * with lengths in points, and the iOS ones (`Launch`, `Terminate`, `RunDriverRequest`,
 * `MobileBHomeButton`, `MobileBAppSwitcher`). The device gives what they need through
 * {@link MobileBActionHost}; every point they hand it is logical (points).
 *
 * @module
 */

import type { ActionContext, ActionParams, DeviceAction, PhoneActionHost, Point } from "@sdk/core";
import {
  buttonAction,
  deviceAction,
  phoneActions,
  PINCH_DIRECTIONS,
  pinchAction,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
  SdkTypeError,
} from "@sdk/core";
import { pinchActions, pinchPath, type W3CActions } from "./gestures.ts";
import { DRIVER_REQUEST_METHODS, type DriverRequestMethod } from "./wda.ts";

/** Default hold of `LongPress` on MobileB, ms (spec 4.2). */
export const DEFAULT_LONG_PRESS_MS = 1000;
/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;
/** Default duration of `Pinch`, ms (spec 4.2). */
export const DEFAULT_PINCH_MS = 500;

// The gap between the fingers of a pinch given by direction and distance, before it changes.
const PINCH_BASE_GAP = 40;

/**
 * What the actions need from the device: what a phone gives the shared ones, and what the iOS
 * ones use. Points are logical (WDA's unit).
 */
export interface MobileBActionHost extends PhoneActionHost {
  /** The window in points and the scale. */
  screen(): Promise<{ width: number; height: number; scale: number }>;
  /** A point snapped to the physical pixel grid and kept on the screen. */
  point(point: Point): Promise<Point>;
  /** Sends W3C actions. */
  perform(actions: W3CActions, signal?: AbortSignal): Promise<void>;
  /** Whether `RunDriverRequest` is in the action space. */
  readonly exposeRunDriverRequestAction: boolean;
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
 * `Terminate`, `RunDriverRequest` (unless `exposeRunDriverRequestAction` is false),
 * `MobileBHomeButton`, `MobileBAppSwitcher`. Each `call` throws
 * a `TypeError` naming the action and parameter for a malformed parameter.
 */
export function mobileBActions(host: MobileBActionHost): DeviceAction[] {
  const unit = "points (logical pixels: screenshot pixels / screen scale)";
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
  const shared = phoneActions(host, {
    unit,
    swipeMs: DEFAULT_SWIPE_MS,
    keyboardPress: {
      description:
        "Press a key of the on-screen keyboard: Enter, Backspace, Tab, Space or a character.",
      param: "one key name: Enter, Backspace, Tab, Space, a, 7",
    },
    longPress: { defaultDurationMs: DEFAULT_LONG_PRESS_MS },
    launch: {
      description: "Open an app, a web page, or a URL of an app's scheme.",
      param:
        "an app name (Settings), a bundle id (com.apple.Preferences), a web URL (https://...) or a URL scheme (tel:123, mailto:a@b.c)",
    },
    terminate: { description: "Close (terminate) an app.", param: "the app's name or bundle id" },
  });
  return [
    ...shared.screen,
    {
      ...pinchBase,
      // `scale` may stand instead of `direction` (spec 4.9: scale > 1 zooms in).
      params: pinchBase.params.map((p) =>
        p.name === "direction"
          ? { ...p, required: false, description: `${p.description}; needed without scale` }
          : p
      ),
    },
    ...shared.apps,
    ...(host.exposeRunDriverRequestAction ? [driverRequestAction(host)] : []),
    buttonAction(
      "MobileBHomeButton",
      "Go to the Home screen (the Home button).",
      () => host.home(),
    ),
    buttonAction(
      "MobileBAppSwitcher",
      "Open the app switcher (the recently used apps).",
      () => host.appSwitcher(),
    ),
  ];
}

/** `RunDriverRequest`: one raw request to WDA; it reaches past the screen. */
function driverRequestAction(host: MobileBActionHost): DeviceAction {
  return {
    ...deviceAction(
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
        const endpoint = readStringParam("RunDriverRequest", param, "endpoint", true);
        await host.runDriverRequest(method, endpoint, readJsonParam(param.data));
      },
    ),
    beyondScreen: "exposeRunDriverRequestAction",
  };
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
      throw new SdkTypeError(
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

// `RunDriverRequest`'s `data`: JSON text (the planner's parameters are flat values).
function readJsonParam(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return undefined;
  try {
    return JSON.parse(String(value));
  } catch {
    throw new SdkTypeError(
      `Cannot run RunDriverRequest: 'data' must be JSON text: current value is ${
        JSON.stringify(String(value).slice(0, 80))
      }`,
    );
  }
}
