/**
 * `ComputerDevice`: a desktop (spec 4.11) as the agent's device, over a {@link DesktopBackend}:
 * the local X11 desktop by default (`x11_backend.ts`), a remote one for `RDPDevice`. The device
 * connects once, builds the desktop action space of `@sdk/core` over the backend's screen, and
 * decides how text goes (pasted whole, or key by key with a delay); the backend connects,
 * captures, presses and types.
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
  desktopActions,
  holdOpen,
  InvalidStateError,
  logDeviceActions,
  logger,
  typeSettings,
  withCustomActions,
} from "@sdk/core";
import type { DesktopBackend, DesktopScreen } from "./backend.ts";
import { checkComputerDeviceOptions, type ComputerDeviceOptions } from "./device_options.ts";
import { type DisplayInfo, listX11Displays } from "./display.ts";
import { X11Backend } from "./x11_backend.ts";

const log = logger("sdk:device");

/** Gives a device its backend (set by {@link useDesktopBackend}). */
let setBackend: (device: ComputerDevice, backend: DesktopBackend) => void;

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
  #backend: DesktopBackend;
  readonly #typeDelay: number | undefined;
  readonly #inputStrategy: InputStrategy;
  readonly #actions: DeviceAction[];
  #connecting: Promise<DesktopScreen> | undefined;
  #destroyed = false;

  static {
    setBackend = (device, backend) => device.#backend = backend;
  }

  /**
   * The local desktop (or an agent-owned virtual display with `headless`); nothing connects until
   * the first screenshot or action.
   *
   * @throws {SdkTypeError} (a `TypeError`) for a flag that is not a boolean, an unknown
   *   `keyboardLayout` or `keyboardDriver`, a `displayId` that is not a non-empty string, a
   *   `display` that is not an X display name (`":99"`), an empty `xauthority`, `display` or
   *   `xauthority` with `headless: true`, a malformed `xvfbResolution`, or malformed
   *   `customActions`.
   * @throws {SdkRangeError} (a `RangeError`) for a negative or non-finite `keyboardTypeDelay` or
   *   `keyboardModifierDelay`, an unknown `inputStrategy`, or `'bulk'` with a positive delay.
   */
  constructor(options: ComputerDeviceOptions = {}) {
    this.#backend = new X11Backend(checkComputerDeviceOptions(options));
    this.#typeDelay = options.keyboardTypeDelay;
    this.#inputStrategy = options.inputStrategy ?? "legacy";
    const builtIn = desktopActions({
      pointer: () => this.#screen(),
      size: () => this.size(),
      key: (combo) => {
        const keys = this.#backend.keys(combo);
        return async () => await (await this.#screen()).pressKeys(keys);
      },
      checkText: (text, overrides) => this.#checkText(text, overrides),
      typeText: (text, overrides, signal) => this.#typeText(text, overrides, signal),
      listDisplays: async () => {
        const screen = await this.#screen();
        log("ListDisplays", { displays: await screen.listDisplays() });
      },
    });
    this.#actions = logDeviceActions(
      withCustomActions("ComputerDevice", builtIn, options.customActions),
    );
  }

  /**
   * The displays (monitors) of an X display, in `xrandr` order, the default one marked
   * `isDefault`.
   *
   * @param options `display`: the X display (default `DISPLAY`); `xauthority`: its X authority
   *   file (default `XAUTHORITY`), as the device options of the same names.
   * @throws {ConnectionError} when no X server answers at the display;
   *   {MissingDependencyError} when no display is given and `DISPLAY` is unset, or `xrandr` is
   *   missing (saying how to install `x11-xserver-utils`); {ToolError} when `xrandr` fails.
   */
  static async listDisplays(
    options: Pick<ComputerDeviceOptions, "display" | "xauthority"> = {},
  ): Promise<DisplayInfo[]> {
    return await listX11Displays(
      options.display ?? process.env.DISPLAY,
      options.xauthority ?? process.env.XAUTHORITY,
    );
  }

  /**
   * The X display name this device works on (`display`, else `DISPLAY`; its own Xvfb's once
   * connected when `headless`);
   * `undefined` after `destroy()`.
   */
  get display(): string | undefined {
    if (this.#destroyed) return undefined;
    return this.#backend.display;
  }

  /**
   * The X authority file of {@link ComputerDevice.display}: for a display the SDK started
   * (`headless`, RDP) its private cookie file (mode 0600), which a program of the user's needs
   * as `XAUTHORITY` to open a window there; else the `xauthority` option, else this process's
   * `XAUTHORITY` (`undefined` when unset, and after `destroy()`).
   */
  get xauthority(): string | undefined {
    if (this.#destroyed) return undefined;
    return this.#backend.xauthority;
  }

  /** The process id of the agent-owned Xvfb while it runs (`headless`), else `undefined`. */
  get xvfbPid(): number | undefined {
    return this.#backend.xvfbPid;
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
    await this.#screen();
  }

  /** The connected screen, connecting on first use; throws after `destroy()` or once lost. */
  async #screen(): Promise<DesktopScreen> {
    if (this.#destroyed) {
      throw new InvalidStateError("Cannot use ComputerDevice after destroy(): create a new device");
    }
    if (!this.#connecting) {
      // The host and Xvfb do not keep the process alive by themselves; connecting does.
      const started = holdOpen(this.#backend.open());
      this.#connecting = started;
      started.catch(() => {
        if (this.#connecting === started) this.#connecting = undefined;
      });
    }
    const screen = await this.#connecting;
    const lost = this.#backend.lost();
    if (lost) throw lost;
    return screen;
  }

  /** Screenshot of the display as a PNG data URI, physical pixels, alpha 255. */
  async screenshotBase64(): Promise<string> {
    const screen = await this.#screen();
    return `data:image/png;base64,${await screen.screenshot()}`;
  }

  /** The display's size; on X11 logical pixels are physical pixels (`dpr` 1). */
  async size(): Promise<Size> {
    return (await this.#screen()).size();
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
    return await (await this.#screen()).screenContext();
  }

  /** `"Desktop <display>"`, shown in reports. */
  describe(): Promise<string> {
    return Promise.resolve(`Desktop ${this.display ?? "(no display)"}`);
  }

  /** Whether `text` goes through the clipboard whole rather than key by key. */
  #pastesWhole(overrides: InputActionOptions | undefined): boolean {
    const { delay, strategy } = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    return this.#backend.pastesText &&
      (strategy === "bulk" || (strategy === "legacy" && delay === 0));
  }

  /** Key-by-key text must be typable, or its untypable characters pasteable. */
  async #checkText(text: string, overrides: InputActionOptions | undefined): Promise<void> {
    if (text === "" || this.#pastesWhole(overrides)) return;
    await (await this.#screen()).checkTyping(text);
  }

  async #typeText(
    text: string,
    overrides: InputActionOptions | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (text === "") return;
    const screen = await this.#screen();
    if (this.#pastesWhole(overrides)) {
      await screen.paste(text);
      return;
    }
    const { delay } = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    await screen.typeKeys(text, delay, signal);
  }

  /**
   * Ends the device: ends its nut-js process (releasing the input driver), then stops the
   * agent-owned Xvfb (`headless`) and waits for it to exit. Idempotent; afterwards every call
   * throws.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    const screen = await this.#connecting?.catch(() => undefined);
    // The X connection goes first: Xlib ends a process whose server disappears under it.
    await screen?.close();
    await this.#backend.close();
  }
}

/**
 * Makes `device` drive `backend` instead of the local desktop: for a device class over another
 * desktop (`RDPDevice`), right after its `super()` and before anything connects.
 */
export function useDesktopBackend(device: ComputerDevice, backend: DesktopBackend): void {
  setBackend(device, backend);
}
