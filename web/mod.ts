/**
 * `@sdk/web`: drive a browser page with the SDK's agent.
 *
 * This module holds the page device and the driver port under the page agents:
 * {@link WebPageDevice} (the device seam over any {@link PageDriver}),
 * {@link DriverAPageDriver} and {@link DriverBPageDriver} (the port over a DriverA or DriverB
 * `Page`, passed in by the user).
 *
 * @example Drive a DriverB page through the device
 * ```ts ignore
 * import { chromium } from "playwright-core";
 * import { DriverBPageDriver, WebPageDevice } from "@sdk/web";
 *
 * const browser = await chromium.launch();
 * const page = await browser.newPage();
 * const device = new WebPageDevice(new DriverBPageDriver(page));
 * console.log(await device.size()); // { width: 1280, height: 720, dpr: 1 }
 * await browser.close();
 * ```
 *
 * @module
 */

export type {
  ButtonOptions,
  ClickOptions,
  DriverRequest,
  MouseButton,
  PageDriver,
  PageDriverKeyboard,
  PageDriverMouse,
  TypeOptions,
  Unsubscribe,
  ViewportInfo,
} from "./page/page_driver.ts";
export {
  DEFAULT_NAVIGATION_TIMEOUT_MS,
  DEFAULT_NETWORK_IDLE_TIMEOUT_MS,
  WebPageDevice,
  type WebPageDeviceOptions,
} from "./page/web_device.ts";
export { DriverAPageDriver } from "./driver_a/puppeteer_driver.ts";
export { DriverBPageDriver } from "./driver_b/playwright_driver.ts";
export {
  DriverAAgent,
  DriverAPageAgent,
  DriverBAgent,
  DriverBPageAgent,
  WebPageAgent,
  type WebPageAgentOptions,
} from "./agent/page_agent.ts";
