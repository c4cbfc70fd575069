/**
 * `@sdk/mobilec`: HarmonyOS agents over the device tool `hdc` (spec 4.10). An agent drives one
 * device through hdc (DevEco Studio or the HarmonyOS command-line tools): screenshots with
 * `snapshot_display`, touches, keys and text with `uitest uiInput`, apps with `aa` and `bm`.
 *
 * Screenshots are in the screen's physical pixels; actions take logical pixels (vp: physical /
 * the display's density).
 *
 * @example
 * ```ts ignore
 * import { agentFromToolDevice, getConnectedDevices } from "@sdk/mobilec";
 *
 * console.log(await getConnectedDevices()); // [{ udid: "127.0.0.1:5555" }]
 * const agent = await agentFromToolDevice(); // the first device; the model from SDK_MODEL_*
 * await agent.launch("Settings");
 * await agent.aiTap("the search box");
 * await agent.aiInput("the search box", { value: "Wi-Fi" });
 * await agent.back();
 * await agent.destroy();
 * ```
 *
 * @module
 */

export { MobileCDevice } from "./device.ts";
export { DEFAULT_SWIPE_MS } from "./actions.ts";
export { DEVICE_SCREENSHOT_PATH } from "./screenshot.ts";
export type { MobileCDeviceOptions } from "./options.ts";
export {
  agentFromToolDevice,
  DEFAULT_APP_NAME_MAPPING,
  getConnectedDevices,
  MobileCAgent,
  PINCH_UNAVAILABLE,
} from "./agent.ts";
export type { AgentFromToolDeviceOptions, ConnectedDevice, MobileCAgentOptions } from "./agent.ts";
export {
  DEFAULT_TOOL_TIMEOUT_MS,
  findTool,
  INSTALL_TOOL_HINT,
  listTargets,
  TOOL_NAME,
  toolCandidates,
} from "./tool.ts";
export type { ToolEnv, ToolOptions } from "./tool.ts";
export { harmonyKeyEvent, MOBILEC_KEY_NAMES } from "./keys.ts";
export { resolveLaunchAbility } from "./bundle.ts";
export type { LaunchAbility } from "./bundle.ts";
export { MOBILEC_SCRIPT_SECTION, mobileCScriptPlatform, runMobileCYaml } from "./yaml.ts";
export type { MobileCScriptSection, RunMobileCYamlOptions } from "./yaml.ts";
export { listMobileCDevices } from "./devices.ts";
export type { ListMobileCDevicesOptions } from "./devices.ts";
