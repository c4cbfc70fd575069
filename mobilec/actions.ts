/**
 * The MobileC action space (spec 4.10): the shared actions of `@sdk/core` worded for a HarmonyOS
 * device, with lengths in vp, and the HarmonyOS ones (`Launch`, `Terminate`, `RunToolShell`,
 * `MobileCBackButton`, `MobileCHomeButton`, `MobileCRecentAppsButton`). The device gives what
 * they need through {@link MobileCActionHost}; every point they hand it is logical (vp).
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
import { harmonyKeyEvent } from "./keys.ts";
import { VP_UNIT } from "./screen.ts";

/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;

const DRAG_MS = 1000;
const KEY_MOVE_END = harmonyKeyEvent("End");

/** What the actions need from the device. Points are logical (vp). */
export interface MobileCActionHost {
  /** Hide the keyboard after `Input` and `ClearInput`. */
  readonly autoDismissKeyboard: boolean;
  /** The device's logical size. */
  size(): Promise<Size>;
  /** A tap, a double tap or a long press (the system's hold). */
  touch(kind: "click" | "doubleClick" | "longClick", point: Point): Promise<void>;
  /** One finger from `from` to `to` over about `ms` (`drag` holds first). */
  move(kind: "swipe" | "drag", from: Point, to: Point, ms: number): Promise<void>;
  /** One key (a code or a name). */
  keyEvent(key: string): Promise<void>;
  /** Types text with the input strategy and delay in effect. */
  typeText(text: string, overrides?: InputActionOptions, signal?: AbortSignal): Promise<void>;
  /** Empties the focused field. */
  clearField(): Promise<void>;
  /** Hides the keyboard. */
  dismissKeyboard(): Promise<void>;
  /** The bundle for an app name (the agent's `appNameMapping`). */
  resolveApp(target: string): string;
  /** Opens a URL, an ability or an app. */
  launch(uri: string): Promise<void>;
  /** Force-stops an app. */
  terminate(uri: string): Promise<void>;
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
 * `RunToolShell`, `MobileCBackButton`, `MobileCHomeButton`, `MobileCRecentAppsButton`.
 */
export function mobileCActions(host: MobileCActionHost): DeviceAction[] {
  const plain = deviceAction;
  const at = (action: string, param: ActionParams, name = "locate"): LocatedElement =>
    readLocateParam(action, param, true, name);
  return [
    tapAction(async (param) => await host.touch("click", at("Tap", param).center)),
    doubleClickAction(async (param) => {
      await host.touch("doubleClick", at("DoubleClick", param).center);
    }, {
      description: "Double-tap an element (two quick taps).",
      params: { locate: "the element to double-tap" },
    }),
    inputAction(async (param, context) => {
      const target = readLocateParam("Input", param, false);
      const mode = readEnumParam("Input", param, "mode", [...INPUT_MODES, "append"], "replace");
      const value = readStringParam("Input", param, "value", mode !== "clear") ?? "";
      if (target) await host.touch("click", target.center);
      if (mode === "typeOnly" || mode === "append") {
        await host.keyEvent(KEY_MOVE_END);
      } else {
        await host.clearField();
      }
      if (mode !== "clear") await host.typeText(value, context.inputOptions, context.signal);
      if (host.autoDismissKeyboard) await host.dismissKeyboard();
    }),
    clearInputAction(async (param) => {
      await host.touch("click", at("ClearInput", param).center);
      await host.clearField();
      if (host.autoDismissKeyboard) await host.dismissKeyboard();
    }),
    keyboardPressAction(async (param) => {
      const target = readLocateParam("KeyboardPress", param, false);
      const keyName = readStringParam("KeyboardPress", param, "keyName", true);
      const key = harmonyKeyEvent(keyName);
      if (target) await host.touch("click", target.center);
      await host.keyEvent(key);
    }, {
      description:
        "Press one key on the device, such as Enter, Tab, Escape, Backspace or a letter.",
      params: {
        locate: "the element to tap before pressing; the focused element when left out",
        keyName: "one key name: Enter, Tab, Escape, Backspace, Delete, ArrowDown, a, 7",
      },
    }),
    scrollAction((param) => scroll(host, param), {
      unit: VP_UNIT,
      params: { locate: "a point inside the area to scroll; the screen center when left out" },
    }),
    swipeAction(async (param) => {
      const { from, to } = swipeEnds(param, await host.size());
      const ms = readPositiveNumberParam("Swipe", param, "duration") ?? DEFAULT_SWIPE_MS;
      await host.move("swipe", from, to, ms);
    }, { unit: VP_UNIT, defaultDurationMs: DEFAULT_SWIPE_MS }),
    dragAndDropAction(async (param) => {
      await host.move(
        "drag",
        at("DragAndDrop", param, "from").center,
        at("DragAndDrop", param, "to").center,
        DRAG_MS,
      );
    }, {
      description:
        "Drag an element and drop it onto another place: press and hold 'from', move to 'to', lift.",
    }),
    longPressAction(async (param) => {
      await host.touch("longClick", at("LongPress", param).center);
    }, {
      defaultDurationMs: 1500,
      description:
        "Press and hold an element with a finger (a long press; the system's long-press time, " +
        "'duration' is not used on HarmonyOS).",
    }),
    plain("Launch", "Open an app or a web page.", [{
      name: "uri",
      type: "string",
      required: true,
      description:
        "an app name (Settings), a bundle name (com.huawei.hmos.settings), bundle/Ability, or a web URL (https://...)",
    }], async (param) => {
      await host.launch(host.resolveApp(readStringParam("Launch", param, "uri", true)));
    }),
    plain("Terminate", "Force-stop an app.", [{
      name: "uri",
      type: "string",
      required: true,
      description: "the app's name or bundle name (or bundle/Ability: only the bundle is used)",
    }], async (param) => {
      await host.terminate(host.resolveApp(readStringParam("Terminate", param, "uri", true)));
    }),
    plain("RunToolShell", "Run a command in the device's shell (hdc shell).", [{
      name: "command",
      type: "string",
      required: true,
      description: "the shell command, without the `hdc shell` prefix",
    }], async (param) => {
      await host.runToolShell(readStringParam("RunToolShell", param, "command", true));
    }),
    plain("MobileCBackButton", "Press the system Back key.", [], () => host.back()),
    plain(
      "MobileCHomeButton",
      "Press the system Home key (the home screen).",
      [],
      () => host.home(),
    ),
    plain(
      "MobileCRecentAppsButton",
      "Open the recent tasks (the app switcher).",
      [],
      () => host.recentApps(),
    ),
  ];
}

async function scroll(host: MobileCActionHost, param: ActionParams): Promise<void> {
  for (const stroke of scrollStrokes(param, await host.size())) {
    await host.move("swipe", stroke.from, stroke.to, stroke.ms);
  }
}
