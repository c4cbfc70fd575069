/**
 * `@sdk/web/testing`: the device simulator kit, for testing phone automation offline.
 *
 * A {@link VirtualPhone} is a phone screen that is a page in headless Chromium, at the phone's
 * physical size and density; it records every input and answers from the page's real state.
 * Fronts put a device protocol in front of it: {@link startAdbFront} speaks adb's device
 * transport, so the real `adb` connects to the phone with `adb connect 127.0.0.1:<port>`;
 * {@link startHdcFront} writes an `hdc` executable that answers like HarmonyOS's device tool. It is a
 * simulator, not an emulator: no Android runs (docs/simulator.md says what it does not simulate).
 * {@link startWdaFront} speaks WebDriverAgent's HTTP protocol and MJPEG stream, so iOS clients
 * drive the same phone as a real iPhone's WebDriverAgent.
 *
 * @example A virtual phone behind the real adb
 * ```ts ignore
 * import { startAdbFront, startVirtualPhone } from "@sdk/web/testing";
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
export { type AdbFront, type AdbFrontOptions, startAdbFront } from "./adb_front.ts";
export {
  type HdcCommandRecord,
  type HdcFront,
  type HdcFrontOptions,
  startHdcFront,
} from "./hdc_front.ts";
export { startWdaFront, type WdaFault, type WdaFront, type WdaFrontOptions } from "./wda_front.ts";
