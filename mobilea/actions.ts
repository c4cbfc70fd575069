/**
 * The MobileA action space (spec 4.8): the shared actions of `@sdk/core` worded for an Android
 * phone, with lengths in dp, and the Android ones (`PullGesture`, `Launch`, `Terminate`,
 * `RunBridgeShell`, `MobileABackButton`, `MobileAHomeButton`, `MobileARecentAppsButton`). The
 * device gives what they need through {@link MobileAActionHost}; every point they hand it is
 * logical (dp). `Pinch` is apart (`pinch.ts`): it depends on the scrcpy server jar.
 *
 * @module
 */

import type {
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
import type { ShellResult } from "./bridge_shell.ts";
import { androidKeyCode } from "./keys.ts";
import { KEYCODE_MOVE_END } from "./input.ts";
import { DP_UNIT } from "./screen.ts";

/** Default hold of `LongPress` on MobileA, ms (spec 8). */
export const DEFAULT_LONG_PRESS_MS = 2000;
/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;
/** Default duration of `PullGesture`, ms. */
export const DEFAULT_PULL_MS = 500;

const DRAG_MS = 1500;
// Where a pull starts: this fraction of the screen height from the top (pull down) or bottom
// (pull up) edge; its default travel: this fraction of the screen height.
const PULL_EDGE_FRACTION = 0.1;
const PULL_DEFAULT_FRACTION = 0.5;

/** What the actions need from the device. Points are logical (dp). */
export interface MobileAActionHost {
  /** Hide the keyboard after `Input` and `ClearInput`. */
  readonly autoDismissKeyboard: boolean;
  /** Whether `RunBridgeShell` is in the action space. */
  readonly exposeRunBridgeShellAction: boolean;
  /** The device's logical size. */
  size(): Promise<Size>;
  /** One tap. */
  tap(point: Point): Promise<void>;
  /** Two quick taps. */
  doubleTap(point: Point): Promise<void>;
  /** One finger from `from` to `to` over `ms` (`draganddrop` holds before moving). */
  swipe(from: Point, to: Point, ms: number, verb?: "swipe" | "draganddrop"): Promise<void>;
  /** Key events (`KEYCODE_*`). */
  keyevent(...codes: number[]): Promise<void>;
  /** Types text with the input strategy and delay in effect. */
  typeText(text: string, overrides?: InputActionOptions, signal?: AbortSignal): Promise<void>;
  /** Empties the focused field. */
  clearField(): Promise<void>;
  /** Hides the keyboard while it is up. */
  dismissKeyboard(): Promise<void>;
  /** The package for an app name (the agent's `appNameMapping`). */
  resolveApp(target: string): string;
  /** Opens a URL, an activity or an app. */
  launch(uri: string): Promise<void>;
  /** Force-stops an app. */
  terminate(uri: string): Promise<void>;
  /** A command in the device's shell. */
  runBridgeShell(command: string): Promise<ShellResult>;
  /** The system Back button. */
  back(): Promise<void>;
  /** The system Home button. */
  home(): Promise<void>;
  /** The system Recent apps button. */
  recentApps(): Promise<void>;
}

/**
 * The MobileA actions without `Pinch`, in the planner's order: `Tap`, `DoubleClick`, `Input`,
 * `ClearInput`, `KeyboardPress`, `Scroll`, `Swipe`, `DragAndDrop`, `LongPress`, `PullGesture`,
 * `Launch`, `Terminate`, `RunBridgeShell` (unless `exposeRunBridgeShellAction` is false),
 * `MobileABackButton`, `MobileAHomeButton`, `MobileARecentAppsButton`.
 */
export function mobileAActions(host: MobileAActionHost): DeviceAction[] {
  const plain = deviceAction;
  const at = (action: string, param: ActionParams, name = "locate"): LocatedElement =>
    readLocateParam(action, param, true, name)!;
  const actions: DeviceAction[] = [
    tapAction(async (param) => await host.tap(at("Tap", param).center)),
    doubleClickAction(async (param) => await host.doubleTap(at("DoubleClick", param).center), {
      description: "Double-tap an element (two quick taps).",
      params: { locate: "the element to double-tap" },
    }),
    inputAction(async (param, context) => {
      const target = readLocateParam("Input", param, false);
      const mode = readEnumParam("Input", param, "mode", [...INPUT_MODES, "append"], "replace");
      const value = readStringParam("Input", param, "value", mode !== "clear") ?? "";
      if (target) await host.tap(target.center);
      if (mode === "typeOnly" || mode === "append") {
        await host.keyevent(KEYCODE_MOVE_END);
      } else {
        await host.clearField();
      }
      if (mode !== "clear") await host.typeText(value, context.inputOptions, context.signal);
      if (host.autoDismissKeyboard) await host.dismissKeyboard();
    }),
    clearInputAction(async (param) => {
      await host.tap(at("ClearInput", param).center);
      await host.clearField();
      if (host.autoDismissKeyboard) await host.dismissKeyboard();
    }),
    keyboardPressAction(async (param) => {
      const target = readLocateParam("KeyboardPress", param, false);
      const keyName = readStringParam("KeyboardPress", param, "keyName", true)!;
      const code = androidKeyCode(keyName);
      if (target) await host.tap(target.center);
      await host.keyevent(code);
    }, {
      description: "Press a key on the phone, such as Enter, Tab, Escape, Backspace or a letter.",
      params: {
        locate: "the element to tap before pressing; the focused element when left out",
        keyName: "one key name: Enter, Tab, Escape, Backspace, Delete, ArrowDown, a, 7",
      },
    }),
    scrollAction((param) => scroll(host, param), {
      unit: DP_UNIT,
      params: {
        locate: "a point inside the area to scroll; the screen center when left out",
      },
    }),
    swipeAction(async (param) => {
      const { from, to } = swipeEnds(param, await host.size());
      const ms = readPositiveNumberParam("Swipe", param, "duration") ?? DEFAULT_SWIPE_MS;
      await host.swipe(from, to, ms);
    }, { unit: DP_UNIT, defaultDurationMs: DEFAULT_SWIPE_MS }),
    dragAndDropAction(async (param) => {
      await host.swipe(
        at("DragAndDrop", param, "from").center,
        at("DragAndDrop", param, "to").center,
        DRAG_MS,
        "draganddrop",
      );
    }, {
      description:
        "Drag an element and drop it onto another place: press and hold 'from', move to 'to', lift.",
    }),
    longPressAction(async (param) => {
      const point = at("LongPress", param).center;
      const ms = readPositiveNumberParam("LongPress", param, "duration") ??
        DEFAULT_LONG_PRESS_MS;
      await host.swipe(point, point, ms);
    }, {
      defaultDurationMs: DEFAULT_LONG_PRESS_MS,
      description: "Press and hold an element with a finger (a long press).",
    }),
    plain(
      "PullGesture",
      "Pull the screen with one finger: 'down' from near the top edge (refresh a list, open " +
        "the notification shade), 'up' from near the bottom edge (load more, open a bottom sheet).",
      [
        {
          name: "direction",
          type: "enum",
          values: ["down", "up"],
          required: true,
          description:
            "down: from near the top edge downwards; up: from near the bottom edge upwards",
        },
        {
          name: "distance",
          type: "number",
          required: false,
          description: `how far the finger moves, ${DP_UNIT}; default half the screen height`,
        },
        {
          name: "duration",
          type: "number",
          required: false,
          description: `how long the pull takes, ms; default ${DEFAULT_PULL_MS}`,
        },
      ],
      async (param) => {
        if (param.direction === undefined || param.direction === null) {
          throw new TypeError("Cannot run PullGesture: give 'direction' (down or up)");
        }
        const direction = readEnumParam(
          "PullGesture",
          param,
          "direction",
          ["down", "up"],
          "down",
        );
        const distance = readPositiveNumberParam("PullGesture", param, "distance");
        const ms = readPositiveNumberParam("PullGesture", param, "duration") ?? DEFAULT_PULL_MS;
        await pull(host, direction, distance, ms);
      },
    ),
    plain("Launch", "Open an app or a web page.", [{
      name: "uri",
      type: "string",
      required: true,
      description:
        "an app name (Settings), a package name (com.android.settings), package/.Activity, or a web URL (https://...)",
    }], async (param) => {
      await host.launch(host.resolveApp(readStringParam("Launch", param, "uri", true)!));
    }),
    plain("Terminate", "Force-stop an app.", [{
      name: "uri",
      type: "string",
      required: true,
      description:
        "the app's name or package name (or package/.Activity: only the package is used)",
    }], async (param) => {
      await host.terminate(
        host.resolveApp(readStringParam("Terminate", param, "uri", true)!),
      );
    }),
  ];
  if (host.exposeRunBridgeShellAction) {
    actions.push(
      plain("RunBridgeShell", "Run a command in the device's adb shell.", [{
        name: "command",
        type: "string",
        required: true,
        description: "the shell command, without the `adb shell` prefix",
      }], async (param) => {
        const command = readStringParam("RunBridgeShell", param, "command", true)!;
        const result = await host.runBridgeShell(command);
        if (result.exitCode !== 0) {
          throw new Error(
            `RunBridgeShell: \`${command}\` exited with ${result.exitCode}: ${
              (result.stderr || result.stdout).trim().slice(0, 300)
            }`,
          );
        }
      }),
    );
  }
  actions.push(
    plain("MobileABackButton", "Press the system Back button.", [], () => host.back()),
    plain(
      "MobileAHomeButton",
      "Press the system Home button (the launcher).",
      [],
      () => host.home(),
    ),
    plain(
      "MobileARecentAppsButton",
      "Press the system Recent apps button (the app switcher).",
      [],
      () => host.recentApps(),
    ),
  );
  return actions;
}

async function scroll(host: MobileAActionHost, param: ActionParams): Promise<void> {
  for (const stroke of scrollStrokes(param, await host.size())) {
    await host.swipe(stroke.from, stroke.to, stroke.ms);
  }
}

// A vertical swipe from near the top edge down, or from near the bottom edge up; the travel
// is cut so that the finger stays on the screen.
async function pull(
  host: MobileAActionHost,
  direction: "down" | "up",
  distance: number | undefined,
  ms: number,
): Promise<void> {
  const { width, height } = await host.size();
  const edge = height * PULL_EDGE_FRACTION;
  const travel = Math.min(distance ?? height * PULL_DEFAULT_FRACTION, height - 1 - edge);
  const x = width / 2;
  const from = direction === "down" ? edge : height - 1 - edge;
  const to = direction === "down" ? from + travel : from - travel;
  await host.swipe([x, from], [x, to], ms);
}
