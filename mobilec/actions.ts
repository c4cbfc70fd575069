/**
 * The MobileC action space (spec 4.10): the shared actions of `@sdk/core` worded for a HarmonyOS
 * device, with lengths in vp, and the HarmonyOS ones (`Launch`, `Terminate`, `RunToolShell`,
 * `MobileCBackButton`, `MobileCHomeButton`, `MobileCRecentAppsButton`). The device gives what
 * they need through {@link MobileCActionHost}; every point they hand it is logical (vp).
 *
 * @module
 */

import type { DeviceAction, PhoneActionHost } from "@sdk/core";
import { buttonAction, deviceAction, phoneActions, readStringParam } from "@sdk/core";
import { VP_UNIT } from "./screen.ts";

/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;

/**
 * What the actions need from the device: what a phone gives the shared ones, and what the
 * HarmonyOS ones use. Points are logical (vp).
 */
export interface MobileCActionHost extends PhoneActionHost {
  /** Whether `RunToolShell` is in the action space. */
  readonly exposeRunToolShellAction: boolean;
  /** A command in the device's shell. */
  runToolShell(command: string): Promise<string>;
  /** The system Back key. */
  back(): Promise<void>;
  /** The system Home key. */
  home(): Promise<void>;
  /** The recent tasks. */
  recentApps(): Promise<void>;
}

/**
 * The MobileC actions, in the planner's order: `Tap`, `DoubleClick`, `Input`, `ClearInput`,
 * `KeyboardPress`, `Scroll`, `Swipe`, `DragAndDrop`, `LongPress`, `Launch`, `Terminate`,
 * `RunToolShell` (unless `exposeRunToolShellAction` is false), `MobileCBackButton`,
 * `MobileCHomeButton`, `MobileCRecentAppsButton`.
 */
export function mobileCActions(host: MobileCActionHost): DeviceAction[] {
  const shared = phoneActions(host, {
    unit: VP_UNIT,
    swipeMs: DEFAULT_SWIPE_MS,
    keyboardPress: {
      description:
        "Press one key on the device, such as Enter, Tab, Escape, Backspace or a letter.",
      param: "one key name: Enter, Tab, Escape, Backspace, Delete, ArrowDown, a, 7",
    },
    longPress: {
      defaultDurationMs: 1500,
      description:
        "Press and hold an element with a finger (a long press; the system's long-press time, " +
        "'duration' is not used on HarmonyOS).",
      fixedHold: true,
    },
    launch: {
      description: "Open an app or a web page.",
      param:
        "an app name (Settings), a bundle name (com.huawei.hmos.settings), bundle/Ability, or a web URL (https://...)",
    },
    terminate: {
      description: "Force-stop an app.",
      param: "the app's name or bundle name (or bundle/Ability: only the bundle is used)",
    },
  });
  return [
    ...shared.screen,
    ...shared.apps,
    ...(host.exposeRunToolShellAction
      ? [{
        ...deviceAction("RunToolShell", "Run a command in the device's shell (hdc shell).", [{
          name: "command",
          type: "string",
          required: true,
          description: "the shell command, without the `hdc shell` prefix",
        }], async (param) => {
          await host.runToolShell(readStringParam("RunToolShell", param, "command", true));
        }),
        beyondScreen: "exposeRunToolShellAction",
      }]
      : []),
    buttonAction("MobileCBackButton", "Press the system Back key.", () => host.back()),
    buttonAction(
      "MobileCHomeButton",
      "Press the system Home key (the home screen).",
      () => host.home(),
    ),
    buttonAction(
      "MobileCRecentAppsButton",
      "Open the recent tasks (the app switcher).",
      () => host.recentApps(),
    ),
  ];
}
