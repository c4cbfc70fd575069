/**
 * `ComputerDevice`: the local desktop (spec 4.11) as the agent's device. Screenshots of one
 * display in physical pixels with an opaque alpha channel; mouse, keyboard and clipboard through
 * nut-js ({@link NativeInput}), loaded only after an X server answered.
 *
 * On X11 one logical pixel is one physical pixel (`dpr` 1), and a display is a monitor of the X
 * screen (`xrandr --listmonitors`); actions take points on that monitor.
 *
 * @module
 */

import process from "node:process";
import type {
  AbstractInterface,
  DeviceAction,
  InputActionOptions,
  InputStrategy,
  Size,
} from "@sdk/core";
import {
  checkBooleanOptions,
  checkInputOptions,
  DeviceNotFoundError,
  holdOpen,
  InvalidStateError,
  logDeviceActions,
  quoteExcerpt,
  SdkRangeError,
  SdkTypeError,
  sleep,
  ToolError,
  typeCodePoints,
  typeSettings,
  UnsupportedActionError,
  withCustomActions,
} from "@sdk/core";
import {
  checkXvfbResolution,
  type DisplayInfo,
  listX11Displays,
  startXvfb,
  type VirtualDisplay,
} from "./display.ts";
import { loadNativeInput, type NativeInput, type ScreenRegion } from "./native.ts";
import { desktopActions } from "./actions.ts";
import { untypable } from "./keymap.ts";
import { X11Keys } from "./x11_keys.ts";
import { openX11, type X11Connection, type X11KeyboardState, type X11Keymap } from "./x11.ts";

/** How long a paste waits for the focused application to fetch the text, ms. */
const PASTE_CONFIRM_MS = 5000;

/** Default `xvfbResolution` (spec 4.11). */
export const DEFAULT_XVFB_RESOLUTION = "1920x1080x24";

/** Options of {@link ComputerDevice} (spec 4.11, local desktop options). All optional. */
export interface ComputerDeviceOptions {
  /**
   * The display to control: a monitor's `id` or `index` from {@link ComputerDevice.listDisplays}.
   * Default: the primary monitor, else the one at the screen's origin, else the whole X screen
   * when `xrandr` is not installed.
   */
  displayId?: string;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /**
   * macOS keyboard backend (`'scripted'` default, `'native'`). Accepted everywhere; it changes
   * nothing on Linux, where keys always go through nut-js (XTest).
   */
  keyboardDriver?: "scripted" | "native";
  /**
   * ms (finite, >= 0, default 0) after each modifier transition and after the main key: in
   * shortcuts, for the Shift of upper-case letters in sequential input, and for shifted en-US
   * punctuation when `keyboardLayout` is `'en-US'`.
   */
  keyboardModifierDelay?: number;
  /**
   * Accepted for compatibility; key-by-key input always follows the X server's active keymap
   * (read from the server), so shifted punctuation and AltGr characters are right on any
   * layout without it.
   */
  keyboardLayout?: "en-US";
  /**
   * Linux: start an agent-owned virtual display (Xvfb) and work on it; stopped by `destroy()`.
   * Default `false`, or `true` when `SDK_COMPUTER_HEADLESS_LINUX=true`.
   */
  headless?: boolean;
  /** Size of the headless display: `<width>x<height>x<depth>`. Default `'1920x1080x24'`. */
  xvfbResolution?: string;
  /**
   * ms between code points (finite, >= 0). Unset or 0 with `'legacy'`: text is pasted through
   * the clipboard; positive: typed one code point at a time with real key events.
   */
  keyboardTypeDelay?: number;
  /**
   * `'legacy'` (default; see `keyboardTypeDelay`), `'sequential'` (key events per code point),
   * `'bulk'` (one clipboard paste; needs the delay unset or 0).
   */
  inputStrategy?: InputStrategy;
}

/**
 * The local desktop. Nothing connects in the constructor; the first screenshot, size, action or
 * {@link ComputerDevice.connect} does (and starts Xvfb when `headless`).
 *
 * @example
 * ```ts ignore
 * import { ComputerAgent, ComputerDevice } from "@sdk/computer";
 *
 * const device = new ComputerDevice({ headless: true, xvfbResolution: "1280x800x24" });
 * const agent = new ComputerAgent(device);
 * await agent.aiTap("the Save button");
 * await agent.destroy(); // stops the virtual display
 * ```
 */
export class ComputerDevice implements AbstractInterface {
  /** Interface kind shown in reports. */
  readonly interfaceType: "computer" = "computer";
  readonly #displayId: string | undefined;
  readonly #headless: boolean;
  readonly #resolution: string;
  readonly #modifierDelay: number;
  readonly #typeDelay: number | undefined;
  readonly #inputStrategy: InputStrategy;
  readonly #actions: DeviceAction[];
  #connecting: Promise<{ input: NativeInput; region: ScreenRegion }> | undefined;
  #xvfb: VirtualDisplay | undefined;
  #native: NativeInput | undefined;
  #display: string | undefined;
  #xauthority: string | undefined;
  #x11: Promise<X11Connection> | undefined;
  /** Key presses on the device's own X connection, by the keymap. */
  readonly #keys = new X11Keys(() => this.x11Connection(), () => this.#modifierPause());
  #destroyed = false;

  /**
   * The local desktop (or an agent-owned virtual display with `headless`); nothing connects until
   * the first screenshot or action.
   *
   * @throws {SdkTypeError} (a `TypeError`) for a flag that is not a boolean, an unknown
   *   `keyboardLayout` or `keyboardDriver`, a `displayId` that is not a non-empty string, a
   *   malformed `xvfbResolution`, or malformed `customActions`.
   * @throws {SdkRangeError} (a `RangeError`) for a negative or non-finite `keyboardTypeDelay` or
   *   `keyboardModifierDelay`, an unknown `inputStrategy`, or `'bulk'` with a positive delay.
   */
  constructor(options: ComputerDeviceOptions = {}) {
    checkBooleanOptions("ComputerDevice", options, ["headless"]);
    checkInputOptions(options);
    const modifierDelay = options.keyboardModifierDelay;
    if (modifierDelay !== undefined && !(Number.isFinite(modifierDelay) && modifierDelay >= 0)) {
      throw new SdkRangeError(
        `Cannot create ComputerDevice as 'keyboardModifierDelay' must be a finite number >= 0 ` +
          `(ms): current value is ${modifierDelay}`,
      );
    }
    if (options.keyboardLayout !== undefined && options.keyboardLayout !== "en-US") {
      throw new SdkTypeError(
        `Cannot create ComputerDevice as 'keyboardLayout' must be 'en-US' or left out: current ` +
          `value is ${JSON.stringify(options.keyboardLayout)}`,
      );
    }
    const driver = options.keyboardDriver;
    if (driver !== undefined && driver !== "scripted" && driver !== "native") {
      throw new SdkTypeError(
        `Cannot create ComputerDevice as 'keyboardDriver' must be 'scripted' or 'native': ` +
          `current value is ${JSON.stringify(driver)}`,
      );
    }
    if (
      options.displayId !== undefined &&
      (typeof options.displayId !== "string" || options.displayId.trim() === "")
    ) {
      throw new SdkTypeError(
        `Cannot create ComputerDevice as 'displayId' must be a display id from ` +
          `ComputerDevice.listDisplays(): current value is ${JSON.stringify(options.displayId)}`,
      );
    }
    this.#resolution = options.xvfbResolution ?? DEFAULT_XVFB_RESOLUTION;
    checkXvfbResolution(this.#resolution);
    this.#displayId = options.displayId?.trim();
    this.#headless = options.headless ??
      (process.env.SDK_COMPUTER_HEADLESS_LINUX?.toLowerCase() === "true");
    this.#modifierDelay = modifierDelay ?? 0;
    this.#typeDelay = options.keyboardTypeDelay;
    this.#inputStrategy = options.inputStrategy ?? "legacy";
    const builtIn = desktopActions({
      input: () => this.#input(),
      size: () => this.size(),
      checkText: (text, overrides) => this.#checkText(text, overrides),
      typeText: (text, overrides, signal) => this.#typeText(text, overrides, signal),
      pressKeys: (keys) => this.#pressKeys(keys),
      listDisplays: () => this.#listDisplays(),
    });
    this.#actions = logDeviceActions(
      withCustomActions("ComputerDevice", builtIn, options.customActions),
    );
  }

  /**
   * The displays (monitors) of the X display in `DISPLAY`, in `xrandr` order, the default one
   * marked `isDefault`.
   *
   * @throws {ConnectionError} when no X server answers at `DISPLAY`;
   *   {MissingDependencyError} when `DISPLAY` is unset or `xrandr` is missing (saying how to
   *   install `x11-xserver-utils`); {ToolError} when `xrandr` fails.
   */
  static async listDisplays(): Promise<DisplayInfo[]> {
    return await listX11Displays(process.env.DISPLAY, process.env.XAUTHORITY);
  }

  /**
   * The X display name this device works on (`DISPLAY`, or its own Xvfb's once connected);
   * `undefined` after `destroy()`.
   */
  get display(): string | undefined {
    if (this.#destroyed) return undefined;
    return this.#display ?? process.env.DISPLAY;
  }

  /**
   * The X authority file of {@link ComputerDevice.display}: for a display the SDK started
   * (`headless`, RDP) its private cookie file (mode 0600), which a program of the user's needs
   * as `XAUTHORITY` to open a window there; else this process's `XAUTHORITY` (`undefined` when
   * unset, and after `destroy()`).
   */
  get xauthority(): string | undefined {
    if (this.#destroyed) return undefined;
    return this.#xauthority ?? process.env.XAUTHORITY;
  }

  /** The process id of the agent-owned Xvfb while it runs (`headless`), else `undefined`. */
  get xvfbPid(): number | undefined {
    return this.#xvfb?.pid;
  }

  /**
   * Connects: starts Xvfb when `headless`, confirms the X server, loads nut-js, finds the display.
   * Idempotent; the first screenshot or action calls it too.
   *
   * @throws {ConnectionError} after `destroy()` (kind `lost`) and when no X server answers
   *   (`refused`, `timeout`); {MissingDependencyError} when there is no `DISPLAY`, or Xvfb,
   *   nut-js or `xrandr` is missing (saying how to install them); {DeviceNotFoundError} when
   *   `displayId` is not listed (the message lists the displays); {ToolError} when Xvfb,
   *   `xrandr` or nut-js fails; {UnsupportedActionError} for `headless` off Linux.
   */
  async connect(): Promise<void> {
    await this.#input();
  }

  async #input(): Promise<{ input: NativeInput; region: ScreenRegion }> {
    if (this.#destroyed) {
      throw new InvalidStateError("Cannot use ComputerDevice after destroy(): create a new device");
    }
    if (!this.#connecting) {
      // The host and Xvfb do not keep the process alive by themselves; connecting does.
      const started = holdOpen(this.#open());
      this.#connecting = started;
      started.catch(() => {
        if (this.#connecting === started) this.#connecting = undefined;
      });
    }
    const connected = await this.#connecting;
    const lost = this.connectionLost();
    if (lost) throw lost;
    return connected;
  }

  /**
   * Why the display can no longer be used though it was opened (an RDP client that ended), or
   * `undefined`; checked before every call.
   */
  protected connectionLost(): Error | undefined {
    return undefined;
  }

  /**
   * The X display to work on, prepared, and its X authority file when the SDK started it: the
   * agent's own Xvfb when `headless`, else `DISPLAY`. A device over another display (an RDP
   * client's) overrides it.
   */
  protected async openDisplay(): Promise<{ display: string | undefined; xauthority?: string }> {
    if (!this.#headless) return { display: process.env.DISPLAY };
    if (!this.#xvfb) {
      if (process.platform !== "linux") {
        throw new UnsupportedActionError(
          `Cannot start a virtual display (headless) on ${process.platform}: Xvfb is for Linux; ` +
            "leave 'headless' out and run in the desktop session",
          "headless",
        );
      }
      this.#xvfb = await startXvfb(this.#resolution);
    }
    return { display: this.#xvfb.display, xauthority: this.#xvfb.xauthority };
  }

  /**
   * Checks the display once the input host runs, before the device is used; a remote session
   * that shows nothing (RDP) fails here. Nothing to check locally.
   */
  protected async checkDisplay(_input: NativeInput, _region: ScreenRegion): Promise<void> {}

  /** Ends what {@link ComputerDevice.openDisplay} started, after the input host has ended. */
  protected async closeDisplay(): Promise<void> {
    const xvfb = this.#xvfb;
    this.#xvfb = undefined;
    await xvfb?.stop();
  }

  /**
   * Whether text may go through the clipboard (legacy input without a delay, `'bulk'`). A
   * device whose clipboard does not reach the target types instead.
   */
  protected get pasteText(): boolean {
    return true;
  }

  /**
   * Checks, before anything is typed, the characters of a text that no key of the display's
   * keymap types ({@link untypable}); they are pasted ({@link ComputerDevice.pasteChar}).
   * Locally the clipboard takes any text; a device whose clipboard may not reach the target
   * throws here.
   */
  protected checkUntypable(_chars: readonly string[]): Promise<void> {
    return Promise.resolve();
  }

  /** Enters a character no key types: through the clipboard, then Control+V. */
  protected async pasteChar(char: string): Promise<void> {
    await this.#paste(char);
  }

  async #open(): Promise<{ input: NativeInput; region: ScreenRegion }> {
    const { display, xauthority } = await this.openDisplay();
    this.#display = display;
    this.#xauthority = xauthority;
    const input = await loadNativeInput(display, xauthority);
    this.#native = input;
    try {
      const region = await this.#region(input, display);
      await this.checkDisplay(input, region);
      return { input, region };
    } catch (e) {
      await input.close();
      this.#native = undefined;
      // What openDisplay started (an Xvfb, an RDP client) goes too; a retry starts anew.
      await this.closeDisplay();
      throw e;
    }
  }

  /** The part of the X screen to work on: `displayId`'s monitor, else the default one. */
  async #region(input: NativeInput, display: string | undefined): Promise<ScreenRegion> {
    const whole = { x: 0, y: 0, ...(await input.screenSize()) };
    let displays: DisplayInfo[] | undefined;
    try {
      displays = await listX11Displays(display, this.xauthority);
    } catch (e) {
      if (this.#displayId !== undefined) throw e;
    }
    if (this.#displayId === undefined) {
      const chosen = displays?.find((d) => d.isDefault);
      return chosen ? regionOf(chosen) : whole;
    }
    const id = this.#displayId;
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

  async #listDisplays(): Promise<DisplayInfo[]> {
    await this.#input();
    return await listX11Displays(this.display, this.xauthority);
  }

  /** Screenshot of the display as a PNG data URI, physical pixels, alpha 255. */
  async screenshotBase64(): Promise<string> {
    const { input, region } = await this.#input();
    return `data:image/png;base64,${await input.grabPng(region)}`;
  }

  /** The display's size; on X11 logical pixels are physical pixels (`dpr` 1). */
  async size(): Promise<Size> {
    const { region } = await this.#input();
    return { width: region.width, height: region.height, dpr: 1 };
  }

  /** The desktop actions of spec 4.11, then `customActions`. */
  actionSpace(): DeviceAction[] {
    return this.#actions;
  }

  /**
   * The top-level window with the keyboard focus and its application class
   * (`window 0x1a00007 (Gedit)`), or `window none`: a dialog or another application taking the
   * focus ends a plan of several actions (docs/model-protocol.md); a title that changes as the
   * user types does not. Over RDP it is the client's window, which never changes.
   *
   * @throws {ConnectionError} when the display cannot be reached.
   */
  async screenContext(): Promise<string> {
    await this.#input();
    const focus = await (await this.x11Connection()).focusedWindow();
    if (!focus) return "window none";
    const id = `window 0x${focus.id.toString(16)}`;
    return focus.windowClass === undefined ? id : `${id} (${focus.windowClass})`;
  }

  /** `"Desktop <display>"`, shown in reports. */
  describe(): Promise<string> {
    return Promise.resolve(`Desktop ${this.display ?? "(no display)"}`);
  }

  async #pressKeys(keys: readonly string[]): Promise<void> {
    const { input } = await this.#input();
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

  /** Whether `text` goes through the clipboard whole rather than key by key. */
  #pastesWhole(overrides: InputActionOptions | undefined): boolean {
    const { delay, strategy } = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    return this.pasteText && (strategy === "bulk" || (strategy === "legacy" && delay === 0));
  }

  /** Key-by-key text whose characters no key types must be pasteable ({@link checkUntypable}). */
  async #checkText(text: string, overrides: InputActionOptions | undefined): Promise<void> {
    if (text === "" || this.#pastesWhole(overrides)) return;
    const { keymap, state } = await this.#keymap();
    await this.checkUntypable(untypable(keymap, text, state.group));
  }

  async #typeText(
    text: string,
    overrides: InputActionOptions | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (text === "") return;
    if (this.#pastesWhole(overrides)) {
      await this.#paste(text);
      return;
    }
    const { keymap, state } = await this.#keymap();
    await this.checkUntypable(untypable(keymap, text, state.group));
    const { delay } = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    await this.#keys.withCapsLockOff(keymap, state.capsLock, async () => {
      await typeCodePoints(text, delay, signal, async (char) => {
        const plan = this.#keys.plan(keymap, char, state.group);
        if (plan) await this.#keys.press(plan);
        else await this.pasteChar(char);
      });
    });
  }

  /**
   * The X server's keymap and the keyboard's Caps Lock and group, read for each text (the user
   * may switch layouts meanwhile).
   */
  async #keymap(): Promise<{ keymap: X11Keymap; state: X11KeyboardState }> {
    await this.#input();
    const x11 = await this.x11Connection();
    return { keymap: await x11.keymap(), state: await x11.keyboardState() };
  }

  /**
   * The device's own X connection (XTEST keys, the keymap, a clipboard of its own), opened on
   * first use, once the display is connected.
   */
  protected x11Connection(): Promise<X11Connection> {
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
  protected async pressControlV(): Promise<void> {
    // No such keys on this keymap: nut-js finds its own.
    if (!(await this.#keys.controlV())) await this.#pressKeys(["LeftControl", "V"]);
  }

  /**
   * Pastes `text`: X11: the device's own X connection owns the clipboard with it, presses
   * Control+V and waits until the focused application fetched the text, so that the keys after
   * it arrive after the text (an application that waits for the clipboard handles the keys that
   * come meanwhile first). macOS: nut-js's clipboard and Command+V.
   *
   * @throws {ToolError} (`x11`) when no application asked for the text within 5 s.
   */
  async #paste(text: string): Promise<void> {
    const { input } = await this.#input();
    if (process.platform === "darwin") {
      await input.setClipboard(text);
      await this.#pressKeys(["LeftSuper", "V"]);
      return;
    }
    const x11 = await this.x11Connection();
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

  /**
   * Ends the device: ends its nut-js process (releasing the input driver), then stops the
   * agent-owned Xvfb (`headless`) and waits for it to exit. Idempotent; afterwards every call
   * throws.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#connecting?.catch(() => undefined);
    (await this.#x11?.catch(() => undefined))?.close();
    this.#x11 = undefined;
    // The X connection goes first: Xlib ends a process whose server disappears under it.
    await this.#native?.close();
    this.#native = undefined;
    await this.closeDisplay();
  }
}

function regionOf(display: DisplayInfo): ScreenRegion {
  return { x: display.x, y: display.y, width: display.width, height: display.height };
}
