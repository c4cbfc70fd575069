/**
 * `@sdk/mobileb`: iOS agents over the WebDriverAgent HTTP service (spec 4.9). An agent drives one
 * iPhone or iPad (a device or a simulator) through WebDriverAgent, with plain `fetch` (no client
 * library): screenshots with `GET /screenshot`, touches as W3C actions, text through
 * `/wda/keys`, apps through `/wda/apps/*` and `/url`.
 *
 * Screenshots are in the screen's physical pixels; actions take logical points (physical / the
 * screen's scale, 2 or 3 on current iPhones).
 *
 * @example
 * ```ts ignore
 * import { agentFromDeviceDriver } from "@sdk/mobileb";
 *
 * const agent = await agentFromDeviceDriver({ driverPort: 8100 }); // model from SDK_MODEL_*
 * await agent.launch("Settings");
 * await agent.aiTap("the General item");
 * await agent.home();
 * await agent.destroy(); // deletes the WDA session it created
 * ```
 *
 * @module
 */

export { MobileBDevice } from "./device.ts";
export { DEFAULT_DRIVER_HOST, DEFAULT_DRIVER_MJPEG_PORT, DEFAULT_DRIVER_PORT } from "./options.ts";
export { DEFAULT_LONG_PRESS_MS, DEFAULT_PINCH_MS, DEFAULT_SWIPE_MS } from "./actions.ts";
export type { DriverMjpegFrameSource, MobileBDeviceOptions } from "./options.ts";
export { agentFromDeviceDriver, DEFAULT_APP_NAME_MAPPING, MobileBAgent } from "./agent.ts";
export type {
  AgentFromDeviceDriverOptions,
  MobileBAgentOptions,
  RunDriverRequestParams,
} from "./agent.ts";
export { DEVICE_CLASS_OVERRIDE_ENV, loadDeviceClass } from "./device_class.ts";
export type { MobileBDeviceClass } from "./device_class.ts";
export {
  DEFAULT_DRIVER_CONNECT_TIMEOUT_MS,
  DEFAULT_DRIVER_REQUEST_TIMEOUT_MS,
  DRIVER_REQUEST_METHODS,
  startDriverHint,
  WDA_TOOL,
} from "./wda.ts";
export type { DriverRequestMethod } from "./wda.ts";
export { iosKeyText } from "./keys.ts";
export { MOBILEB_SCRIPT_SECTION, mobileBScriptPlatform, runMobileBYaml } from "./yaml.ts";
export type { MobileBScriptSection, RunMobileBYamlOptions } from "./yaml.ts";
export { listMobileBDevices } from "./devices.ts";
export type { ListMobileBDevicesOptions } from "./devices.ts";
