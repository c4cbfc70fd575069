/**
 * `@sdk/web/testing`: the device simulator kit's shared part, for testing phone automation
 * offline: the virtual phone and the phone shell the platforms' fronts run on it.
 *
 * A {@link VirtualPhone} ({@link startVirtualPhone}) is a phone screen that is a page in headless
 * Chromium, at the phone's physical size and density; it records every input and answers from the
 * page's real state. Every coordinate is in physical pixels. It is a simulator, not an emulator:
 * no phone system runs (docs/simulator.md says what it does not simulate).
 *
 * Fronts put a device protocol in front of it, each in its platform's `testing` entry:
 * `startAdbFront` of `@sdk/mobilea/testing` (adb's device transport), `startWdaFront` of
 * `@sdk/mobileb/testing` (WebDriverAgent's HTTP protocol) and `startHdcFront` of
 * `@sdk/mobilec/testing` (an `hdc` executable). The device shells of the adb and hdc fronts are
 * the phone shell here ({@link runShell}, a small `sh` over in-memory files) with the platform's
 * own commands beside the {@link TOYBOX_COMMANDS}.
 *
 * @example A virtual phone behind the real adb
 * ```ts ignore
 * import { startVirtualPhone } from "@sdk/web/testing";
 * import { startAdbFront } from "@sdk/mobilea/testing";
 *
 * const phone = await startVirtualPhone({
 *   width: 1080, height: 2400, density: 2.625, // physical pixels; 420 dpi
 *   apps: { "com.example.notes": "http://127.0.0.1:8080/notes/" },
 * });
 * const front = await startAdbFront(phone);
 * // $ adb connect 127.0.0.1:<front.port> && adb -s <front.serial> shell input tap 540 300
 * console.log(phone.inputs); // [{ type: "tap", x: 540, y: 300 }]
 * await front.close();
 * await phone.close();
 * ```
 *
 * @module
 */

export {
  BROWSER_PACKAGE,
  type ForegroundApp,
  KEYCODE,
  LAUNCHER_ACTIVITY,
  LAUNCHER_PACKAGE,
  RECENTS_ACTIVITY,
  type SimulatedApp,
  type SimulatorInput,
  startVirtualPhone,
  type TouchPoint,
  type VirtualPhone,
  type VirtualPhoneOptions,
} from "./virtual_phone.ts";
export {
  resolvePath,
  runShell,
  type ShellCommand,
  type ShellCommandIo,
  type ShellDevice,
  type ShellOutput,
  type SimulatedShellCommand,
  type SimulatedShellIo,
} from "./phone_shell.ts";
export { TOYBOX_COMMANDS } from "./toybox.ts";
export {
  readScreenElements,
  type ScreenElement,
  type ScreenElementKind,
  type ScreenElements,
} from "./_screen_elements.ts";
export type { DriverBBrowser, DriverBPage } from "../driver_b/types.ts";
