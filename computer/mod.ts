/**
 * `@sdk/computer`: desktop agents (spec 4.11). A {@link ComputerAgent} drives the local desktop
 * (Linux, X11) through `@nut-tree-fork/nut-js`, an optional peer loaded on first use: screenshots
 * in physical pixels, mouse, keyboard and clipboard. `headless: true` starts an agent-owned Xvfb.
 *
 * @example
 * ```ts ignore
 * import { agentForComputer, checkComputerEnvironment, ComputerDevice } from "@sdk/computer";
 *
 * console.log((await checkComputerEnvironment()).problems);
 * console.log(await ComputerDevice.listDisplays());
 * const agent = await agentForComputer({ headless: true }); // model from SDK_MODEL_*
 * await agent.aiTap("the Save button");
 * await agent.destroy(); // stops the agent's Xvfb
 * ```
 *
 * @module
 */

export {
  agentForComputer,
  agentForRDPComputer,
  agentFromComputer,
  ComputerAgent,
} from "./agent.ts";
export type { AgentForComputerOptions, AgentForRDPComputerOptions } from "./agent.ts";
export { RDPDevice } from "./rdp.ts";
export { computerScriptPlatform, runComputerYaml } from "./yaml.ts";
export type { ComputerScriptRdp, ComputerScriptSection, RunComputerYamlOptions } from "./yaml.ts";
export { classifyRdpFailure, INSTALL_FREERDP } from "./rdp_client.ts";
export { DEFAULT_RDP_PORT, DEFAULT_RDP_SIZE } from "./rdp_options.ts";
export type { RDPDeviceOptions } from "./rdp_options.ts";
export { ComputerDevice } from "./device.ts";
export { DEFAULT_XVFB_RESOLUTION } from "./device_options.ts";
export type { ComputerDeviceOptions } from "./device_options.ts";
export type { DisplayInfo } from "./display.ts";
export { INSTALL_XRANDR, INSTALL_XVFB } from "./display.ts";
export { checkComputerEnvironment } from "./environment.ts";
export type { EnvironmentCheck, EnvironmentItem } from "./environment.ts";
export { INSTALL_NUT_JS } from "./native.ts";
export type { MouseButton, NativeInput, ScreenRegion } from "./native.ts";
export type { X11Connection, X11KeyboardState, X11Keymap } from "./x11.ts";
export { DEFAULT_DRAG_MS, DRAG_AND_DROP_MS, SCROLL_TO_END_CLICKS, WHEEL_CLICK_PX } from "@sdk/core";
export { desktopKeys, EN_US_SHIFTED } from "./keys.ts";
export type { NutKeyCombo } from "./keys.ts";
export { listComputerDevices } from "./devices.ts";
export type { ListComputerDevicesOptions } from "./devices.ts";
