/**
 * `@sdk/mobilea/testing`: the adb front of the device simulator kit, for testing Android
 * automation offline.
 *
 * {@link startAdbFront} speaks adb's device transport (what an emulator's `adbd` speaks) in front
 * of a virtual phone of `@sdk/web/testing`, so the real `adb` connects to the phone with
 * `adb connect 127.0.0.1:<port>` and every adb client then drives it: a simulated Android shell
 * (`input`, `screencap`, `am`, `dumpsys`, ...), file sync, and the scrcpy server's protocol. It is
 * a simulator, not an emulator: no Android runs (docs/simulator.md says what it does not
 * simulate).
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

export { type AdbFront, type AdbFrontOptions, startAdbFront } from "./adb_front.ts";
