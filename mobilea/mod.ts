/**
 * `@sdk/mobilea`: Android agents over adb (spec 4.8). An agent drives one device through the adb
 * server (Android platform-tools, or Debian's `adb` package) with `@yume-chan/adb`: screenshots
 * with `screencap` (or the scrcpy mirror stream, decoded by ffmpeg, with `mirrorConfig`), input
 * with `input`, non-ASCII text with the yadb helper, two-finger pinches through the scrcpy
 * server's control channel.
 *
 * Screenshots are in the screen's physical pixels; actions take logical pixels (Android's dp:
 * physical / (dpi / 160)).
 *
 * @example
 * ```ts ignore
 * import { agentFromBridgeDevice, getConnectedDevicesWithDetails } from "@sdk/mobilea";
 *
 * console.log(await getConnectedDevicesWithDetails());
 * const agent = await agentFromBridgeDevice(); // the first connected device; model from SDK_MODEL_*
 * await agent.launch("com.android.settings");
 * await agent.aiTap("the search box");
 * await agent.aiInput("the search box", { value: "Wi-Fi" });
 * await agent.back();
 * await agent.destroy();
 * ```
 *
 * @module
 */

export { MobileADevice } from "./device.ts";
export { DEFAULT_LONG_PRESS_MS, DEFAULT_PULL_MS, DEFAULT_SWIPE_MS } from "./actions.ts";
export { DEFAULT_SHELL_TIMEOUT_MS } from "./bridge_shell.ts";
export type { RunBridgeShellOptions, ShellResult } from "./bridge_shell.ts";
export { DEFAULT_MIN_SCREENSHOT_BUFFER_SIZE } from "./screenshot.ts";
export { pinchUnavailable } from "./pinch.ts";
export { YADB_PATH } from "./yadb.ts";
export type { MirrorConfig, MobileADeviceOptions } from "./options.ts";
export type { MirrorStatus } from "./mirror.ts";
export {
  agentFromBridgeDevice,
  DEFAULT_APP_NAME_MAPPING,
  getConnectedDevices,
  getConnectedDevicesWithDetails,
  MobileAAgent,
  PINCH_UNAVAILABLE,
} from "./agent.ts";
export type {
  AgentFromBridgeDeviceOptions,
  ConnectedDevice,
  ConnectedDeviceDetails,
  MobileAAgentOptions,
} from "./agent.ts";
export { DEFAULT_BRIDGE_PORT, INSTALL_ADB_HINT } from "./bridge.ts";
export {
  DEFAULT_MIRROR_BIT_RATE,
  DEFAULT_MIRROR_IDLE_TIMEOUT_MS,
  DEFAULT_MIRROR_RESET_FRAME_TIMEOUT_MS,
  MIRROR_RETRY_DELAY_MS,
} from "./mirror.ts";
export { INSTALL_FFMPEG_HINT } from "./mirror_decoder.ts";
export { DEFAULT_SCRCPY_SERVER_PATH, DEFAULT_SCRCPY_SERVER_VERSION } from "./scrcpy.ts";
export { DEFAULT_PINCH_MS } from "./scrcpy_pinch.ts";
export type { BridgeOptions } from "./bridge.ts";
export { androidKeyCode } from "./keys.ts";
export { mobileAScriptPlatform, runMobileAYaml } from "./yaml.ts";
export type { RunMobileAYamlOptions } from "./yaml.ts";
export { listMobileADevices } from "./devices.ts";
export type { ListMobileADevicesOptions } from "./devices.ts";
