/**
 * The virtual phone's input (private to `@sdk/web/testing`): fingers as DevTools touch events on
 * the page on screen, text as key presses or as one insertion, and Android key codes (the system
 * keys act on the screens, the others become keys on the page). Every input is recorded before it
 * is sent. Coordinates are physical pixels; the page gets CSS pixels (divided by the density).
 *
 * @module
 */

import type { CDPSession, Page } from "playwright-core";
import { dismissKeyboard, keyboardShown } from "./_phone_keyboard.ts";
import type { PhoneApps } from "./_phone_apps.ts";
import { SdkTypeError } from "../_core.ts";

/** Android key codes the simulator acts on (the codes `input keyevent` takes). */
export const KEYCODE: Readonly<Record<string, number>> = Object.freeze({
  HOME: 3,
  BACK: 4,
  DPAD_UP: 19,
  DPAD_DOWN: 20,
  DPAD_LEFT: 21,
  DPAD_RIGHT: 22,
  VOLUME_UP: 24,
  VOLUME_DOWN: 25,
  POWER: 26,
  TAB: 61,
  SPACE: 62,
  ENTER: 66,
  DEL: 67,
  MENU: 82,
  SEARCH: 84,
  PAGE_UP: 92,
  PAGE_DOWN: 93,
  ESCAPE: 111,
  FORWARD_DEL: 112,
  MOVE_HOME: 122,
  MOVE_END: 123,
  APP_SWITCH: 187,
});

/** One input the phone received, in the order received. Coordinates in physical pixels. */
export type SimulatorInput =
  | { type: "tap"; x: number; y: number }
  | { type: "swipe"; x1: number; y1: number; x2: number; y2: number; durationMs: number }
  | { type: "longPress"; x: number; y: number; durationMs: number }
  | { type: "touch"; action: "down" | "move" | "up" | "cancel"; x: number; y: number }
  | { type: "text"; text: string; method: "keys" | "ime" }
  | { type: "clearText" }
  | { type: "key"; keyCode: number }
  | { type: "launch"; packageName: string; activity?: string }
  | { type: "stop"; packageName: string }
  | { type: "openUrl"; url: string }
  | { type: "multiTouch"; points: TouchPoint[] };

/** A finger on the screen, physical pixels; `id` tells fingers apart across calls. */
export interface TouchPoint {
  /** Any number naming the finger; the same id in the next call is the same finger. */
  id: number;
  /** Horizontal position, physical pixels. */
  x: number;
  /** Vertical position, physical pixels. */
  y: number;
}

// Keys the simulator forwards to the page, by Android key code.
const PAGE_KEYS: ReadonlyMap<number, string> = new Map<number, string>([
  [19, "ArrowUp"],
  [20, "ArrowDown"],
  [21, "ArrowLeft"],
  [22, "ArrowRight"],
  [61, "Tab"],
  [62, " "],
  [66, "Enter"],
  [67, "Backspace"],
  [92, "PageUp"],
  [93, "PageDown"],
  [111, "Escape"],
  [112, "Delete"],
  [122, "Home"],
  [123, "End"],
  ...Array.from({ length: 10 }, (_, i) => [7 + i, String(i)] as [number, string]),
  ...Array.from(
    { length: 26 },
    (_, i) => [29 + i, String.fromCharCode(97 + i)] as [number, string],
  ),
]);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function checkPoint(x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    throw new SdkTypeError(`a point needs finite coordinates, got (${x}, ${y})`);
  }
}

/** What the input acts on: the phone's screens and its record of inputs. */
export interface InputTarget {
  /** Physical pixels per CSS pixel. */
  density: number;
  /** The phone's record of inputs; each input is appended before it is sent. */
  inputs: SimulatorInput[];
  /** The phone's apps and screens (the page on screen, the system keys). */
  apps: PhoneApps;
  /** Runs one operation on the screen at a time, in arrival order. */
  serial<T>(operation: () => Promise<T>): Promise<T>;
  /** The DevTools session of a page. */
  session(page: Page): Promise<CDPSession>;
}

/** The input methods of one phone (`VirtualPhone` documents each). */
export class PhoneInput {
  #target: InputTarget;
  /** Whether the finger of `touch()` is down. */
  #fingerDown = false;
  /** The fingers `multiTouch()` put down, by id, in physical pixels. */
  #fingers = new Map<number, TouchPoint>();

  /** @param target the phone the input goes to. */
  constructor(target: InputTarget) {
    this.#target = target;
  }

  /** One finger down and up, held `holdMs` between. */
  tap(x: number, y: number, holdMs = 0): Promise<void> {
    return this.#target.serial(async () => {
      checkPoint(x, y);
      this.#target.inputs.push({ type: "tap", x, y });
      await this.#touch("touchStart", x, y);
      if (holdMs > 0) await sleep(holdMs);
      await this.#touch("touchEnd");
    });
  }

  /** One finger moving once per 16 ms over `durationMs`. */
  swipe(x1: number, y1: number, x2: number, y2: number, durationMs = 300): Promise<void> {
    return this.#target.serial(async () => {
      checkPoint(x1, y1);
      checkPoint(x2, y2);
      this.#target.inputs.push({ type: "swipe", x1, y1, x2, y2, durationMs });
      const steps = Math.max(1, Math.round(durationMs / 16));
      const started = performance.now();
      await this.#touch("touchStart", x1, y1);
      for (let i = 1; i <= steps; i++) {
        const wait = started + (durationMs * i) / steps - performance.now();
        if (wait > 0) await sleep(wait);
        await this.#touch("touchMove", x1 + ((x2 - x1) * i) / steps, y1 + ((y2 - y1) * i) / steps);
      }
      await this.#touch("touchEnd");
    });
  }

  /** One finger held for `durationMs`. */
  longPress(x: number, y: number, durationMs = 600): Promise<void> {
    return this.#target.serial(async () => {
      checkPoint(x, y);
      this.#target.inputs.push({ type: "longPress", x, y, durationMs });
      await this.#touch("touchStart", x, y);
      await sleep(durationMs);
      await this.#touch("touchEnd");
    });
  }

  /** One step of a finger driven by hand; `move` and `up` without a finger down are ignored. */
  touch(action: "down" | "move" | "up" | "cancel", x: number, y: number): Promise<void> {
    return this.#target.serial(async () => {
      checkPoint(x, y);
      this.#target.inputs.push({ type: "touch", action, x, y });
      if (action === "down") {
        this.#fingerDown = true;
        await this.#touch("touchStart", x, y);
      } else if (this.#fingerDown && action === "move") await this.#touch("touchMove", x, y);
      else if (this.#fingerDown) {
        this.#fingerDown = false;
        await this.#touch(action === "up" ? "touchEnd" : "touchCancel");
      }
    });
  }

  /** Sets the fingers on the screen: new ids go down, known ids move, missing ids lift. */
  multiTouch(points: readonly TouchPoint[]): Promise<void> {
    return this.#target.serial(async () => {
      const next = new Map<number, TouchPoint>();
      for (const { id, x, y } of points) {
        checkPoint(x, y);
        if (next.has(id)) throw new SdkTypeError(`multiTouch(): two fingers share the id ${id}`);
        next.set(id, { id, x, y });
      }
      this.#target.inputs.push({ type: "multiTouch", points: [...next.values()] });
      const known = this.#fingers;
      this.#fingers = next;
      const { density } = this.#target;
      const s = await this.#target.session(this.#target.apps.current());
      const send = (
        type: "touchStart" | "touchMove" | "touchEnd",
        points: Iterable<TouchPoint>,
      ) =>
        s.send("Input.dispatchTouchEvent", {
          type,
          touchPoints: [...points].map(({ id, x, y }) => ({
            id,
            x: x / density,
            y: y / density,
          })),
        });
      // Chromium compares each event's points with the last event's: missing ids are released,
      // new ids pressed, known ids moved. So lifts go first (the staying fingers where they
      // were), then one event puts new fingers down and moves the others.
      const staying = [...known.values()].filter(({ id }) => next.has(id));
      if (staying.length < known.size) await send("touchEnd", staying);
      if ([...next.keys()].some((id) => !known.has(id))) await send("touchStart", next.values());
      else if (
        [...next.values()].some(({ id, x, y }) => known.get(id)!.x !== x || known.get(id)!.y !== y)
      ) await send("touchMove", next.values());
    });
  }

  /** One key press per character into the focused element. */
  inputText(text: string): Promise<void> {
    return this.#target.serial(async () => {
      this.#target.inputs.push({ type: "text", text, method: "keys" });
      await this.#target.apps.current().keyboard.type(text);
    });
  }

  /** Empties the focused text field, as an input method does it. */
  clearText(): Promise<void> {
    return this.#target.serial(async () => {
      this.#target.inputs.push({ type: "clearText" });
      await this.#target.apps.current().evaluate(() => {
        const doc = (globalThis as unknown as {
          document: {
            activeElement: unknown;
            execCommand(command: string): boolean;
          };
        }).document;
        const field = doc.activeElement as {
          select?: () => void;
          isContentEditable?: boolean;
        } | null;
        if (!field) return;
        if (typeof field.select === "function") field.select();
        else if (field.isContentEditable) doc.execCommand("selectAll");
        else return;
        doc.execCommand("delete");
      });
    });
  }

  /** One insertion with no key events, the way an input method commits text. */
  commitText(text: string): Promise<void> {
    return this.#target.serial(async () => {
      this.#target.inputs.push({ type: "text", text, method: "ime" });
      await this.#target.apps.current().keyboard.insertText(text);
    });
  }

  /** An Android key code: HOME, APP_SWITCH and BACK act on the screens, others go to the page. */
  keyEvent(keyCode: number): Promise<void> {
    return this.#target.serial(async () => {
      const { apps } = this.#target;
      this.#target.inputs.push({ type: "key", keyCode });
      if (keyCode === KEYCODE.HOME) return await apps.home();
      if (keyCode === KEYCODE.APP_SWITCH) return await apps.toggleRecents();
      if (keyCode === KEYCODE.BACK) return await apps.back();
      if (keyCode === KEYCODE.ESCAPE && await keyboardShown(apps.current())) {
        await dismissKeyboard(apps.current());
      }
      const key = PAGE_KEYS.get(keyCode);
      if (key) await apps.current().keyboard.press(key);
    });
  }

  /** One touch event of the single finger of tap, swipe, longPress and touch. */
  async #touch(
    type: "touchStart" | "touchMove" | "touchEnd" | "touchCancel",
    x?: number,
    y?: number,
  ): Promise<void> {
    const { density } = this.#target;
    const s = await this.#target.session(this.#target.apps.current());
    await s.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: type === "touchEnd" || type === "touchCancel"
        ? []
        : [{ x: x! / density, y: y! / density, id: 1 }],
    });
  }
}
