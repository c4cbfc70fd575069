/**
 * The options of `ComputerDevice` (spec 4.11, local desktop options) and their checks.
 *
 * @module
 */

import process from "node:process";
import type { DeviceAction, InputStrategy } from "@sdk/core";
import { checkBooleanOptions, checkInputOptions, SdkRangeError, SdkTypeError } from "@sdk/core";
import { checkXvfbResolution } from "./display.ts";
import type { X11BackendOptions } from "./x11_backend.ts";

/** Default `xvfbResolution` (spec 4.11). */
export const DEFAULT_XVFB_RESOLUTION = "1920x1080x24";

/** Options of `ComputerDevice` (spec 4.11, local desktop options). All optional. */
export interface ComputerDeviceOptions {
  /**
   * The display to control: a monitor's `id` or `index` from `ComputerDevice.listDisplays()`.
   * Default: the primary monitor, else the one at the screen's origin, else the whole X screen
   * when `xrandr` is not installed.
   */
  displayId?: string;
  /**
   * The X display to drive, `[host]:<number>[.<screen>]` (e.g. `":99"`): a desktop session or an
   * Xvfb of your own, as a device pool hands out (`listComputerDevices`). Default: `DISPLAY` of
   * this process. Not with `headless`, which drives a display of its own.
   */
  display?: string;
  /**
   * The X authority file holding the cookie of {@link ComputerDeviceOptions.display} (for nut-js,
   * `xrandr` and the device's own X connection). Default: `XAUTHORITY` of this process (else
   * `~/.Xauthority`). Not with `headless`, whose display has a cookie file of its own.
   */
  xauthority?: string;
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
   * Default `false`, or `true` when `SDK_COMPUTER_HEADLESS_LINUX=true` and neither `display`
   * nor `xauthority` is given.
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
 * Checks the options of `ComputerDevice` (`customActions` aside: the action space checks them).
 *
 * @returns the local desktop's settings, defaults filled in.
 * @throws {SdkTypeError} (a `TypeError`) for a flag that is not a boolean, an unknown
 *   `keyboardLayout` or `keyboardDriver`, a `displayId` that is not a non-empty string, a
 *   `display` that is not an X display name, an `xauthority` that is not a non-empty string,
 *   `display` or `xauthority` with `headless`, or a malformed `xvfbResolution`.
 * @throws {SdkRangeError} (a `RangeError`) for a negative or non-finite `keyboardTypeDelay` or
 *   `keyboardModifierDelay`, an unknown `inputStrategy`, or `'bulk'` with a positive delay.
 */
export function checkComputerDeviceOptions(options: ComputerDeviceOptions): X11BackendOptions {
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
  checkDisplayOptions(options);
  const resolution = options.xvfbResolution ?? DEFAULT_XVFB_RESOLUTION;
  checkXvfbResolution(resolution);
  return {
    displayId: options.displayId?.trim(),
    display: options.display?.trim(),
    xauthority: options.xauthority,
    // A display named outranks the environment's headless default.
    headless: options.headless ??
      (options.display === undefined && options.xauthority === undefined &&
        process.env.SDK_COMPUTER_HEADLESS_LINUX?.toLowerCase() === "true"),
    resolution,
    modifierDelay: modifierDelay ?? 0,
  };
}

/** An X display name: `[host]:<number>[.<screen>]` (a host may be a socket path on macOS). */
const X_DISPLAY = /^[^\s:]*:\d+(\.\d+)?$/;

/** `display` and `xauthority`: well formed, and not with `headless` (its own display). */
function checkDisplayOptions(options: ComputerDeviceOptions): void {
  const { display, xauthority } = options;
  if (display !== undefined && (typeof display !== "string" || !X_DISPLAY.test(display.trim()))) {
    throw new SdkTypeError(
      `Cannot create ComputerDevice as 'display' must be an X display name such as ":99" or ` +
        `"host:0.0": current value is ${JSON.stringify(display)}`,
    );
  }
  if (xauthority !== undefined && (typeof xauthority !== "string" || xauthority === "")) {
    throw new SdkTypeError(
      `Cannot create ComputerDevice as 'xauthority' must be the path of the display's X ` +
        `authority file: current value is ${JSON.stringify(xauthority)}`,
    );
  }
  const given = (["display", "xauthority"] as const).filter((k) => options[k] !== undefined);
  if (options.headless === true && given.length > 0) {
    throw new SdkTypeError(
      `Cannot create ComputerDevice with 'headless' and ${
        given.map((k) => `'${k}'`).join(" and ")
      }: ` +
        `headless starts and drives a display of its own. Leave out 'headless' to drive ` +
        `${display ?? "DISPLAY"}, or leave out ${given.map((k) => `'${k}'`).join(" and ")}`,
    );
  }
}
