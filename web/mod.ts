/**
 * `@sdk/web`: drive a browser page with the SDK's agent.
 *
 * This module holds the page agents ({@link DriverAPageAgent}, {@link DriverBPageAgent}), the
 * browser-wide agents ({@link DriverABrowserAgent}, {@link DriverBBrowserAgent}), and the seams
 * under them: {@link WebPageDevice} (the device over any {@link PageDriver}),
 * {@link DriverAPageDriver} and {@link DriverBPageDriver} (the port over a DriverA or DriverB
 * `Page`, passed in by the user), and {@link BrowserPort} (pages of a browser or context).
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
  FileChooserWatch,
  MouseButton,
  NativeDialogType,
  PageDialog,
  PageDriver,
  PageDriverKeyboard,
  PageDriverMouse,
  PageDriverScreencast,
  PageDriverTouch,
  PageFileChooser,
  ScreencastOptions,
  TouchEventType,
  TouchPoint,
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
export {
  NATIVE_DIALOG_ANSWER_TIMEOUT_MS,
  type NativeDialog,
  type NativeDialogAnswer,
  type NativeDialogHandler,
  type NativeDialogsOption,
} from "./page/native_dialogs.ts";
export { DriverAPageDriver } from "./driver_a/puppeteer_driver.ts";
export type { DriverABrowser, DriverABrowserContext, DriverAPage } from "./driver_a/types.ts";
export type { DriverBBrowser, DriverBBrowserContext, DriverBPage } from "./driver_b/types.ts";
export { DriverBPageDriver } from "./driver_b/playwright_driver.ts";
export {
  DriverAAgent,
  DriverAPageAgent,
  DriverBAgent,
  DriverBPageAgent,
  WebPageAgent,
  type WebPageAgentOptions,
} from "./agent/page_agent.ts";
export type { BrowserPort } from "./page/browser_port.ts";
export { DriverABrowserPort } from "./driver_a/puppeteer_browser.ts";
export { DriverBBrowserPort } from "./driver_b/playwright_browser.ts";
export {
  DEFAULT_NEW_PAGE_TIMEOUT_MS,
  DriverABrowserAgent,
  type DriverABrowserAgentCreateOptions,
  DriverBBrowserAgent,
  type DriverBBrowserAgentCreateOptions,
  type WaitForNewPageOptions,
  WebBrowserAgent,
  type WebBrowserAgentCreateOptions,
  type WebBrowserAgentOptions,
} from "./agent/browser_agent.ts";
export {
  DEFAULT_PLAYGROUND_PORT,
  type Playground,
  type PlaygroundOptions,
  startPlayground,
} from "./playground/playground.ts";
export type { PlaygroundTarget } from "./playground/target.ts";
export type { PlaygroundCallRequest, PlaygroundCallResult } from "./playground/calls.ts";
export { PLAYGROUND_HOST_ENV, playgroundHostWarning } from "./playground/security.ts";
export {
  AgentOverBrowserBridge,
  type AgentOverBrowserBridgeOptions,
  BRIDGE_TOKEN_ENV,
  type BridgeConnectOptions,
  DEFAULT_BRIDGE_CONNECT_TIMEOUT_MS,
  DEFAULT_BRIDGE_PORT,
} from "./bridge/bridge_agent.ts";
export {
  BRIDGE_NAVIGATION_TIMEOUT_MS,
  type BridgeChannel,
  BridgePageDriver,
} from "./bridge/bridge_driver.ts";
export { type NavigablePage, openUrl, type OpenUrlOptions, stripAnsi } from "./page/navigation.ts";
