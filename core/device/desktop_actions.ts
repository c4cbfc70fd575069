/**
 * The desktop action space of spec 4.11, built once over what a desktop provides
 * ({@link DesktopActionHost}): the shared definitions of `actions.ts` (`Tap`, `DoubleClick`,
 * `DragAndDrop`, `Input`, `ClearInput`, `KeyboardPress`, `Scroll`, `Swipe`) worded for a mouse
 * and keyboard, plus `RightClick`, `Hover`, `CursorMove` and `ListDisplays`. Every desktop (the
 * local X11 one, RDP, and a Windows, macOS or VNC one to come) takes them from here, as the
 * phones take theirs from `phone_actions.ts`.
 *
 * Points handed to the host are pixels of the controlled display; keys are `KeyboardPress`
 * names (`Control+End`, `ArrowLeft`), which the host maps to its own keys.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import { sleep } from "../runtime/runtime.ts";
import {
  clearInputAction,
  deviceAction,
  doubleClickAction,
  dragAndDropAction,
  inputAction,
  keyboardPressAction,
  SCROLL_DIRECTIONS,
  SCROLL_TYPES,
  scrollAction,
  swipeAction,
  tapAction,
} from "./actions.ts";
import { swipeEnds } from "./gestures.ts";
import {
  type ActionParams,
  readEnumParam,
  readLocateCenter,
  readLocateParam,
  readPositiveNumberParam,
} from "./params.ts";
import { runClearInput, runInput, runKeyboardPress, type TextEntryHost } from "./text_entry.ts";
import type { ActionParamSpec, DeviceAction, InputActionOptions, Point, Size } from "./types.ts";

/** Pixels one wheel click stands for when a `Scroll` distance is turned into wheel clicks. */
export const WHEEL_CLICK_PX = 100;
/** Wheel clicks of a `scrollToTop` / `scrollToBottom` / `scrollToLeft` / `scrollToRight`. */
export const SCROLL_TO_END_CLICKS = 200;
/** Default `Swipe` duration, ms. */
export const DEFAULT_DRAG_MS = 500;
/** `DragAndDrop` duration, ms: the pointer moves in steps so the app sees motion events. */
export const DRAG_AND_DROP_MS = 400;

/** The mouse of a desktop. Points are pixels of the controlled display. */
export interface DesktopPointer {
  /** Moves the pointer to `point`. */
  move(point: Point): Promise<void>;
  /** Presses (`down`) or releases `button` where the pointer is. */
  button(button: "left" | "right" | "middle", down: boolean): Promise<void>;
  /** Clicks `button` where the pointer is (`count` 2: a double click). */
  click(button: "left" | "right" | "middle", count: 1 | 2): Promise<void>;
  /** Turns the wheel by whole clicks: `dy` > 0 reveals content below, `dx` > 0 to the right. */
  wheel(dx: number, dy: number): Promise<void>;
}

/** What the desktop actions need from a desktop device. */
export interface DesktopActionHost {
  /** The pointer, once the device is connected (connecting on first use). */
  pointer(): Promise<DesktopPointer>;
  /** The controlled display's size (logical pixels). */
  size(): Promise<Size>;
  /**
   * The key or combination `combo` names (`KeyboardPress` names: `Control+End`, `ArrowLeft`),
   * checked now (throws an `SdkTypeError` naming a key the desktop cannot press), as the press
   * to run later: modifiers first, released in reverse order.
   */
  key(combo: string): () => Promise<void>;
  /**
   * Throws, before anything is typed, for characters of `text` the device cannot send with these
   * options (see `TextEntryHost.checkText`).
   */
  checkText(text: string, overrides: InputActionOptions | undefined): Promise<void>;
  /** Enters text per the device's and the call's input options. */
  typeText(
    text: string,
    overrides: InputActionOptions | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void>;
  /** Reports the displays (`ListDisplays`: to the run log). */
  listDisplays(): Promise<void>;
}

function plain(
  name: string,
  description: string,
  params: readonly ActionParamSpec[],
  run: (param: ActionParams, signal: AbortSignal | undefined) => Promise<void>,
): DeviceAction {
  return deviceAction(name, description, params, (param, context) => run(param, context.signal));
}

/**
 * The built-in desktop actions, in the order the planner sees them.
 *
 * @param host the device's side (see {@link DesktopActionHost}).
 */
export function desktopActions(host: DesktopActionHost): DeviceAction[] {
  const unit = "pixels";
  const moveTo = async (point: Point) => {
    const pointer = await host.pointer();
    await pointer.move(point);
    return pointer;
  };
  const click = async (point: Point, button: "left" | "right" = "left", count: 1 | 2 = 1) => {
    const pointer = await moveTo(point);
    await pointer.click(button, count);
  };
  const drag = async (from: Point, to: Point, ms: number) => {
    const pointer = await moveTo(from);
    await pointer.button("left", true);
    try {
      const steps = Math.max(2, Math.round(ms / 20));
      for (let i = 1; i <= steps; i++) {
        await sleep(ms / steps);
        await moveTo([
          from[0] + (to[0] - from[0]) * i / steps,
          from[1] + (to[1] - from[1]) * i / steps,
        ]);
      }
    } finally {
      await pointer.button("left", false);
    }
  };
  // Emptying a field: select from the end to the start and delete. Control+A is not "select
  // all" everywhere (Tk and Emacs-style fields move to the line start), while
  // Control+End, Control+Shift+Home selects all text in Tk, GTK, Qt and browser fields.
  const clearField = async () => {
    if (globalThis.navigator?.platform?.startsWith("Mac")) {
      await host.key("Meta+A")();
    } else {
      await host.key("Control+End")();
      await host.key("Control+Shift+Home")();
    }
    await host.key("Backspace")();
  };
  const text: TextEntryHost = {
    tap: (point) => click(point),
    caretToEnd: () => host.key("Control+End")(),
    clearField,
    checkText: (value, overrides) => host.checkText(value, overrides),
    typeText: (value, overrides, signal) => host.typeText(value, overrides, signal),
    key: (keyName) => host.key(keyName),
  };
  return [
    tapAction(async (param) => await click(readLocateCenter("Tap", param)), {
      description: "Click an element once with the left mouse button.",
      params: { locate: "the element to click" },
    }),
    doubleClickAction(async (param) =>
      await click(readLocateCenter("DoubleClick", param), "left", 2)
    ),
    plain(
      "RightClick",
      "Right-click an element (opens its context menu).",
      [{
        name: "locate",
        type: "locate",
        required: true,
        description: "the element to right-click",
      }],
      async (param) => await click(readLocateCenter("RightClick", param), "right"),
    ),
    plain(
      "Hover",
      "Move the mouse pointer over an element without clicking (shows tooltips, hover menus).",
      [{ name: "locate", type: "locate", required: true, description: "the element to hover" }],
      async (param) => void await moveTo(readLocateCenter("Hover", param)),
    ),
    dragAndDropAction(async (param) => {
      await drag(
        readLocateCenter("DragAndDrop", param, "from"),
        readLocateCenter("DragAndDrop", param, "to"),
        DRAG_AND_DROP_MS,
      );
    }, {
      description:
        "Drag an element and drop it onto another place: press the left button on 'from', move to 'to', release.",
    }),
    inputAction((param, context) => runInput(text, param, context), {
      params: {
        locate: "the field to click and type into; the focused element when left out",
      },
    }),
    clearInputAction((param) => runClearInput(text, param)),
    keyboardPressAction((param) => runKeyboardPress(text, param)),
    plain(
      "CursorMove",
      "Move the text cursor left or right by a number of characters in the focused field.",
      [
        {
          name: "direction",
          type: "enum",
          values: ["left", "right"],
          required: true,
          description: "left or right",
        },
        {
          name: "times",
          type: "number",
          required: false,
          description: "how many characters to move; 1 when left out",
        },
      ],
      async (param, signal) => {
        const direction = readEnumParam(
          "CursorMove",
          param,
          "direction",
          ["left", "right"],
          "left",
        );
        if (param.direction === undefined || param.direction === null || param.direction === "") {
          throw new SdkTypeError(
            "Cannot run CursorMove: 'direction' ('left' or 'right') is required",
          );
        }
        const times = Math.round(readPositiveNumberParam("CursorMove", param, "times") ?? 1);
        const press = host.key(direction === "left" ? "ArrowLeft" : "ArrowRight");
        for (let i = 0; i < times; i++) {
          signal?.throwIfAborted();
          await press();
        }
      },
    ),
    scrollAction(async (param) => {
      const target = readLocateParam("Scroll", param, false);
      const direction = readEnumParam("Scroll", param, "direction", SCROLL_DIRECTIONS, "down");
      const scrollType = readEnumParam("Scroll", param, "scrollType", SCROLL_TYPES, "singleAction");
      const distance = readPositiveNumberParam("Scroll", param, "distance");
      const pointer = target ? await moveTo(target.center) : await host.pointer();
      if (scrollType === "singleAction") {
        const size = await host.size();
        const span = direction === "down" || direction === "up" ? size.height : size.width;
        const clicks = Math.max(1, Math.round((distance ?? span * 0.7) / WHEEL_CLICK_PX));
        const sign = direction === "down" || direction === "right" ? 1 : -1;
        const vertical = direction === "down" || direction === "up";
        await pointer.wheel(vertical ? 0 : sign * clicks, vertical ? sign * clicks : 0);
        return;
      }
      const n = SCROLL_TO_END_CLICKS;
      const [dx, dy] = {
        scrollToBottom: [0, n],
        scrollToTop: [0, -n],
        scrollToRight: [n, 0],
        scrollToLeft: [-n, 0],
      }[scrollType];
      await pointer.wheel(dx, dy);
    }, {
      unit,
      description:
        "Scroll with the mouse wheel where the pointer is (or over 'locate'), by a distance or to one end.",
      params: {
        locate: "a point inside the area to scroll; the current pointer position when left out",
        distance:
          `${unit} to scroll for singleAction (one wheel click per ${WHEEL_CLICK_PX}); about 70% of the display when left out`,
      },
    }),
    swipeAction(async (param) => {
      const { from, to } = swipeEnds(param, await host.size());
      const ms = readPositiveNumberParam("Swipe", param, "duration") ?? DEFAULT_DRAG_MS;
      await drag(from, to, ms);
    }, {
      unit,
      defaultDurationMs: DEFAULT_DRAG_MS,
      description:
        "Press the left mouse button and move the pointer continuously (from start to end, or along a direction), then release; use Scroll to browse off-screen content.",
      params: {
        start: "where the button is pressed; the display center when left out",
        end: "where the button is released; direction and distance are ignored when given",
      },
    }),
    plain(
      "ListDisplays",
      "List the connected displays (their ids and sizes); the result goes to the run log.",
      [],
      () => host.listDisplays(),
    ),
  ];
}
