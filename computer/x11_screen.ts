/**
 * A connected X display as a {@link DesktopScreen}: capture, pointer and nut-js keys through the
 * nut-js host ({@link NativeInput}) on one monitor's rectangle, and the device's own X
 * connection for typing by the server's keymap, the focused window and the clipboard. Both X11
 * backends use it: the local desktop (`x11_backend.ts`) and RDP, whose client shows the remote
 * session on a private X display (`rdp_backend.ts`); they differ in how characters no key types
 * get there ({@link X11Clipboard}).
 *
 * @module
 */

import process from "node:process";
import type { Point, Size } from "@sdk/core";
import { DeviceNotFoundError, quoteExcerpt, sleep, ToolError, typeCodePoints } from "@sdk/core";
import type { DesktopScreen } from "./backend.ts";
import { type DisplayInfo, listX11Displays } from "./display.ts";
import { untypable } from "./keymap.ts";
import {
  loadNativeInput,
  type MouseButton,
  type NativeInput,
  type ScreenRegion,
} from "./native.ts";
import { X11Keys } from "./x11_keys.ts";
import { openX11, type X11Connection, type X11KeyboardState, type X11Keymap } from "./x11.ts";

/** How long a paste waits for the focused application to fetch the text, ms. */
const PASTE_CONFIRM_MS = 5000;

/** How an X11 screen enters text that no key types: the clipboard, and how it reaches the app. */
export interface X11Clipboard {
  /** Throws, before anything is typed, when `chars` (no key types them) cannot be pasted. */
  check(chars: readonly string[]): Promise<void>;
  /** Pastes `text` into the focused application. */
  paste(text: string): Promise<void>;
}

/** What {@link openX11Screen} needs besides the display. */
export interface X11ScreenOptions {
  /** The monitor to work on (an `id` or `index` of `xrandr`); the default one when left out. */
  displayId?: string;
  /** ms after each modifier press or release and after the main key (`keyboardModifierDelay`). */
  modifierDelay: number;
  /** The clipboard of text no key types. Default: the screen's own ({@link X11Screen.paste}). */
  clipboard?(screen: X11Screen): X11Clipboard;
  /** Checks the screen before it is used (an RDP session that shows nothing fails here). */
  check?(screen: X11Screen): Promise<void>;
  /** Ends what opened the display (an Xvfb, an RDP client), when opening the screen fails. */
  closeDisplay(): Promise<void>;
}

/**
 * Starts the nut-js host on `display`, finds the monitor and checks the screen.
 *
 * @throws {ConnectionError} when no X server answers; {MissingDependencyError} when nut-js or
 *   `xrandr` (with a `displayId`) is missing; {DeviceNotFoundError} when `displayId` is not
 *   listed (the message lists the displays); {ToolError} when `xrandr` or nut-js fails; and what
 *   `check` throws. Past the host's start, a failure closes the host and the display.
 */
export async function openX11Screen(
  display: string | undefined,
  xauthority: string | undefined,
  options: X11ScreenOptions,
): Promise<X11Screen> {
  const input = await loadNativeInput(display, xauthority);
  try {
    const region = await monitorRegion(input, display, xauthority, options.displayId);
    const screen = new X11Screen(input, region, display, xauthority, options);
    await options.check?.(screen);
    return screen;
  } catch (e) {
    await input.close();
    // What opened the display (an Xvfb, an RDP client) goes too; a retry starts anew.
    await options.closeDisplay();
    throw e;
  }
}

/** The part of the X screen to work on: `displayId`'s monitor, else the default one. */
async function monitorRegion(
  input: NativeInput,
  display: string | undefined,
  xauthority: string | undefined,
  displayId: string | undefined,
): Promise<ScreenRegion> {
  const whole = { x: 0, y: 0, ...(await input.screenSize()) };
  let displays: DisplayInfo[] | undefined;
  try {
    displays = await listX11Displays(display, xauthority ?? process.env.XAUTHORITY);
  } catch (e) {
    if (displayId !== undefined) throw e;
  }
  if (displayId === undefined) {
    const chosen = displays?.find((d) => d.isDefault);
    return chosen ? regionOf(chosen) : whole;
  }
  const id = displayId;
  const chosen = displays!.find((d) => d.id === id) ??
    (/^\d+$/.test(id) ? displays!.find((d) => d.index === Number(id)) : undefined);
  if (!chosen) {
    throw new DeviceNotFoundError(
      `Cannot use displayId ${JSON.stringify(id)}: DISPLAY=${display} has ${
        displays!.map((d) => `${d.index}: ${d.id} (${d.width}x${d.height}+${d.x}+${d.y})`)
          .join(", ") || "no displays"
      }. Pass one of these ids or indexes (ComputerDevice.listDisplays())`,
      { wanted: id, available: displays!.map((d) => d.id) },
    );
  }
  return regionOf(chosen);
}

function regionOf(display: DisplayInfo): ScreenRegion {
  return { x: display.x, y: display.y, width: display.width, height: display.height };
}

/**
 * One monitor of a connected X display. On X11 one logical pixel is one physical pixel (`dpr`
 * 1); points are offset by the monitor's origin.
 */
export class X11Screen implements DesktopScreen {
  readonly #input: NativeInput;
  readonly #region: ScreenRegion;
  readonly #display: string | undefined;
  readonly #xauthority: string | undefined;
  readonly #modifierDelay: number;
  readonly #clipboard: X11Clipboard;
  #x11: Promise<X11Connection> | undefined;
  /** Key presses on the device's own X connection, by the keymap. */
  readonly #keys = new X11Keys(() => this.x11(), () => this.#modifierPause());

  /** Use {@link openX11Screen}. */
  constructor(
    input: NativeInput,
    region: ScreenRegion,
    display: string | undefined,
    xauthority: string | undefined,
    options: X11ScreenOptions,
  ) {
    this.#input = input;
    this.#region = region;
    this.#display = display;
    this.#xauthority = xauthority;
    this.#modifierDelay = options.modifierDelay;
    this.#clipboard = options.clipboard?.(this) ??
      { check: () => Promise.resolve(), paste: (text) => this.#clipboardPaste(text) };
  }

  /** The display's size; on X11 logical pixels are physical pixels (`dpr` 1). */
  size(): Size {
    return { width: this.#region.width, height: this.#region.height, dpr: 1 };
  }

  /** Screenshot of the monitor as a base64 PNG, physical pixels, alpha 255. */
  async screenshot(): Promise<string> {
    return await this.#input.grabPng(this.#region);
  }

  /** Whether every pixel of the monitor is black (a remote session that shows nothing yet). */
  async isBlack(): Promise<boolean> {
    return await this.#input.isBlack(this.#region);
  }

  async move([x, y]: Point): Promise<void> {
    await this.#input.move(this.#region.x + x, this.#region.y + y);
  }

  async button(button: MouseButton, down: boolean): Promise<void> {
    await this.#input.button(button, down);
  }

  async click(button: MouseButton, count: 1 | 2): Promise<void> {
    await this.#input.click(button, count);
  }

  async wheel(dx: number, dy: number): Promise<void> {
    await this.#input.wheel(dx, dy);
  }

  /** Presses nut-js keys, modifiers first, pausing `modifierDelay` after each transition. */
  async pressKeys(keys: readonly string[]): Promise<void> {
    const input = this.#input;
    const pause = () => this.#modifierPause();
    const modifiers = keys.slice(0, -1);
    const main = keys[keys.length - 1];
    for (const modifier of modifiers) {
      await input.keys([modifier], true);
      await pause();
    }
    try {
      await input.keys([main], true);
      await input.keys([main], false);
      await pause();
    } finally {
      for (const modifier of [...modifiers].reverse()) {
        await input.keys([modifier], false);
        await pause();
      }
    }
  }

  async #modifierPause(): Promise<void> {
    if (this.#modifierDelay > 0) {
      await sleep(this.#modifierDelay);
    }
  }

  /**
   * The top-level window with the keyboard focus and its application class
   * (`window 0x1a00007 (Gedit)`), or `window none`. Over RDP it is the client's window, which
   * never changes.
   *
   * @throws {ConnectionError} when the display cannot be reached.
   */
  async screenContext(): Promise<string> {
    const focus = await (await this.x11()).focusedWindow();
    if (!focus) return "window none";
    const id = `window 0x${focus.id.toString(16)}`;
    return focus.windowClass === undefined ? id : `${id} (${focus.windowClass})`;
  }

  /** The monitors of the display, as `ComputerDevice.listDisplays()` lists them. */
  async listDisplays(): Promise<DisplayInfo[]> {
    return await listX11Displays(this.#display, this.#xauthority ?? process.env.XAUTHORITY);
  }

  /** Characters no key of the keymap types must be pasteable ({@link X11Clipboard.check}). */
  async checkTyping(text: string): Promise<void> {
    const { keymap, state } = await this.#keymap();
    await this.#clipboard.check(untypable(keymap, text, state.group));
  }

  /**
   * Types `text` key by key on the server's active keymap (Caps Lock off meanwhile); a character
   * no key types is pasted in its place.
   */
  async typeKeys(text: string, delay: number, signal: AbortSignal | undefined): Promise<void> {
    const { keymap, state } = await this.#keymap();
    await this.#clipboard.check(untypable(keymap, text, state.group));
    await this.#keys.withCapsLockOff(keymap, state.capsLock, async () => {
      await typeCodePoints(text, delay, signal, async (char) => {
        const plan = this.#keys.plan(keymap, char, state.group);
        if (plan) await this.#keys.press(plan);
        else await this.#clipboard.paste(char);
      });
    });
  }

  /** Pastes `text` through the screen's clipboard ({@link X11Clipboard.paste}). */
  async paste(text: string): Promise<void> {
    await this.#clipboard.paste(text);
  }

  /**
   * The X server's keymap and the keyboard's Caps Lock and group, read for each text (the user
   * may switch layouts meanwhile).
   */
  async #keymap(): Promise<{ keymap: X11Keymap; state: X11KeyboardState }> {
    const x11 = await this.x11();
    return { keymap: await x11.keymap(), state: await x11.keyboardState() };
  }

  /**
   * The device's own X connection (XTEST keys, the keymap, a clipboard of its own), opened on
   * first use.
   */
  x11(): Promise<X11Connection> {
    if (!this.#x11) {
      const opening = openX11(this.#display!, this.#xauthority);
      this.#x11 = opening;
      opening.catch(() => {
        if (this.#x11 === opening) this.#x11 = undefined;
      });
    }
    return this.#x11;
  }

  /**
   * Presses Control+V on the device's own X connection, so that it reaches the display in
   * order with the keys typed around it (nut-js's host is another X client).
   */
  async pressControlV(): Promise<void> {
    // No such keys on this keymap: nut-js finds its own.
    if (!(await this.#keys.controlV())) await this.pressKeys(["LeftControl", "V"]);
  }

  /**
   * Pastes `text`: X11: the device's own X connection owns the clipboard with it, presses
   * Control+V and waits until the focused application fetched the text, so that the keys after
   * it arrive after the text (an application that waits for the clipboard handles the keys that
   * come meanwhile first). macOS: nut-js's clipboard and Command+V.
   *
   * @throws {ToolError} (`x11`) when no application asked for the text within 5 s.
   */
  async #clipboardPaste(text: string): Promise<void> {
    if (process.platform === "darwin") {
      await this.#input.setClipboard(text);
      await this.pressKeys(["LeftSuper", "V"]);
      return;
    }
    const x11 = await this.x11();
    const asked = x11.clipboardServed.text;
    await x11.setClipboard(text);
    await this.pressControlV();
    const deadline = Date.now() + PASTE_CONFIRM_MS;
    while (x11.clipboardServed.text === asked) {
      if (Date.now() > deadline) {
        throw new ToolError(
          `Cannot paste ${quoteExcerpt(text)} on DISPLAY=${this.#display}: no application ` +
            `asked for the clipboard's text within ${PASTE_CONFIRM_MS / 1000} s of ` +
            "Control+V, so the text did not arrive. Focus a text field first (Input with " +
            "'locate')",
          { tool: "x11", output: "no clipboard request" },
        );
      }
      await sleep(10);
    }
  }

  /** Closes the X connection, then ends the nut-js host (Xlib ends a process whose server goes). */
  async close(): Promise<void> {
    const x11 = this.#x11;
    this.#x11 = undefined;
    (await x11?.catch(() => undefined))?.close();
    await this.#input.close();
  }
}
