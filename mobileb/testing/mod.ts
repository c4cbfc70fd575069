/**
 * `@sdk/mobileb/testing`: the WebDriverAgent (WDA) front of the device simulator kit, for testing
 * iOS automation offline.
 *
 * {@link startWdaFront} speaks WDA's HTTP protocol and its MJPEG screen stream in front of a
 * virtual phone of `@sdk/web/testing`, so an iOS client that drives a real iPhone's
 * WebDriverAgent drives the virtual phone instead. Coordinates are in points: physical pixels
 * divided by the iOS scale factor. It is a simulator: no iOS runs (docs/simulator.md says what it
 * does not simulate).
 *
 * @example An iPhone-sized virtual phone behind WDA
 * ```ts ignore
 * import { startVirtualPhone } from "@sdk/web/testing";
 * import { startWdaFront } from "@sdk/mobileb/testing";
 *
 * const phone = await startVirtualPhone({
 *   width: 1170, height: 2532, density: 3, // physical pixels
 *   apps: { "com.example.notes": "http://127.0.0.1:8080/notes/" },
 * });
 * const wda = await startWdaFront(phone); // scale 3: 390 x 844 points
 * console.log(wda.url); // give it to the iOS client as WDA's URL
 * await wda.close();
 * await phone.close();
 * ```
 *
 * @module
 */

export { startWdaFront, type WdaFault, type WdaFront, type WdaFrontOptions } from "./wda_front.ts";
