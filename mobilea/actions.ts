/**
 * The MobileA action space (spec 4.8): the shared actions of `@sdk/core` worded for an Android
 * phone, with lengths in dp, and the Android ones (`PullGesture`, `Launch`, `Terminate`,
 * `RunBridgeShell`, `MobileABackButton`, `MobileAHomeButton`, `MobileARecentAppsButton`). The
 * device gives what they need through {@link MobileAActionHost}; every point they hand it is
 * logical (dp). `Pinch` is apart (`pinch.ts`): it depends on the scrcpy server jar.
 *
 * @module
 */

import type { DeviceAction, PhoneActionHost } from "@sdk/core";
import {
  buttonAction,
  deviceAction,
  phoneActions,
  readEnumParam,
  readPositiveNumberParam,
  readStringParam,
  SdkTypeError,
} from "@sdk/core";
import type { ShellResult } from "./bridge_shell.ts";
import { shellFailure } from "./errors.ts";
import { DP_UNIT } from "./screen.ts";

/** Default hold of `LongPress` on MobileA, ms (spec 8). */
export const DEFAULT_LONG_PRESS_MS = 2000;
/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;
/** Default duration of `PullGesture`, ms. */
export const DEFAULT_PULL_MS = 500;

// Where a pull starts: this fraction of the screen height from the top (pull down) or bottom
// (pull up) edge; its default travel: this fraction of the screen height.
const PULL_EDGE_FRACTION = 0.1;
const PULL_DEFAULT_FRACTION = 0.5;

/**
 * What the actions need from the device: what a phone gives the shared ones, and what the
 * Android ones use. Points are logical (dp).
 */
export interface MobileAActionHost extends PhoneActionHost {
  /** Whether `RunBridgeShell` is in the action space. */
  readonly exposeRunBridgeShellAction: boolean;
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
  const shared = phoneActions(host, {
    unit: DP_UNIT,
    swipeMs: DEFAULT_SWIPE_MS,
    keyboardPress: {
      description: "Press a key on the phone, such as Enter, Tab, Escape, Backspace or a letter.",
      param: "one key name: Enter, Tab, Escape, Backspace, Delete, ArrowDown, a, 7",
    },
    longPress: { defaultDurationMs: DEFAULT_LONG_PRESS_MS },
    launch: {
      description: "Open an app or a web page.",
      param:
        "an app name (Settings), a package name (com.android.settings), package/.Activity, or a web URL (https://...)",
    },
    terminate: {
      description: "Force-stop an app.",
      param: "the app's name or package name (or package/.Activity: only the package is used)",
    },
  });
  const actions: DeviceAction[] = [...shared.screen, pullGestureAction(host), ...shared.apps];
  if (host.exposeRunBridgeShellAction) {
    actions.push({
      ...deviceAction("RunBridgeShell", "Run a command in the device's adb shell.", [{
        name: "command",
        type: "string",
        required: true,
        description: "the shell command, without the `adb shell` prefix",
      }], async (param) => {
        const command = readStringParam("RunBridgeShell", param, "command", true);
        const result = await host.runBridgeShell(command);
        if (result.exitCode !== 0) {
          throw shellFailure(
            command,
            result.exitCode,
            result.stdout,
            result.stderr,
            "RunBridgeShell: ",
          );
        }
      }),
      beyondScreen: "exposeRunBridgeShellAction",
    });
  }
  actions.push(
    buttonAction("MobileABackButton", "Press the system Back button.", () => host.back()),
    buttonAction(
      "MobileAHomeButton",
      "Press the system Home button (the launcher).",
      () => host.home(),
    ),
    buttonAction(
      "MobileARecentAppsButton",
      "Press the system Recent apps button (the app switcher).",
      () => host.recentApps(),
    ),
  );
  return actions;
}

// `PullGesture`: a one-finger pull from near the top or bottom edge.
function pullGestureAction(host: MobileAActionHost): DeviceAction {
  return deviceAction(
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
        throw new SdkTypeError("Cannot run PullGesture: give 'direction' (down or up)");
      }
      const direction = readEnumParam("PullGesture", param, "direction", ["down", "up"], "down");
      const distance = readPositiveNumberParam("PullGesture", param, "distance");
      const ms = readPositiveNumberParam("PullGesture", param, "duration") ?? DEFAULT_PULL_MS;
      await pull(host, direction, distance, ms);
    },
  );
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
