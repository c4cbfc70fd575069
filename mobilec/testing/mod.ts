/**
 * `@sdk/mobilec/testing`: the hdc front of the device simulator kit, for testing HarmonyOS
 * automation offline.
 *
 * {@link startHdcFront} writes an `hdc` executable that answers like HarmonyOS's device tool
 * (OpenHarmony Device Connector) for one or more virtual phones of `@sdk/web/testing`, so a
 * HarmonyOS client runs it as it would run the real `hdc`: `hdc shell` runs a simulated HarmonyOS
 * shell (`uitest uiInput`, `snapshot_display`, `aa`, `bm`, `hidumper`, `param`, and the toybox
 * tools). It is a simulator: no HarmonyOS runs (docs/simulator.md says what it does not simulate).
 *
 * @example A virtual phone behind a simulated hdc
 * ```ts ignore
 * import { startVirtualPhone } from "@sdk/web/testing";
 * import { startHdcFront } from "@sdk/mobilec/testing";
 *
 * const phone = await startVirtualPhone({
 *   width: 1260, height: 2720, density: 3.25, // physical pixels
 *   apps: { "com.example.notes": "http://127.0.0.1:8080/notes/" },
 * });
 * const front = await startHdcFront(phone);
 * // $ <front.toolPath> -t <front.connectKey> shell uitest uiInput click 540 300
 * console.log(phone.inputs); // [{ type: "tap", x: 540, y: 300 }]
 * await front.close();
 * await phone.close();
 * ```
 *
 * @module
 */

export {
  type HdcCommandRecord,
  type HdcFront,
  type HdcFrontOptions,
  startHdcFront,
} from "./hdc_front.ts";
