/**
 * `ComputerAgent` and the factory `agentForComputer` (alias `agentFromComputer`), spec 4.11.
 *
 * @module
 */

import { Agent } from "@sdk/core";
import type { AbstractInterface, AgentOptions } from "@sdk/core";
import { ComputerDevice } from "./device.ts";
import type { ComputerDeviceOptions } from "./device_options.ts";
import { RDPDevice } from "./rdp.ts";
import type { RDPDeviceOptions } from "./rdp_options.ts";

/**
 * An agent bound to one desktop. `destroy()` ends the device (and stops an agent-owned Xvfb);
 * the desktop's applications are left as they are.
 *
 * @typeParam D the device: {@link ComputerDevice} locally.
 * @example
 * ```ts ignore
 * import { agentForComputer } from "@sdk/computer";
 *
 * const agent = await agentForComputer({ keyboardLayout: "en-US" }); // model from SDK_MODEL_*
 * await agent.aiInput("the search field", { value: "Quarterly report" });
 * await agent.aiKeyboardPress(undefined, { keyName: "Enter" });
 * await agent.destroy();
 * ```
 */
export class ComputerAgent<D extends AbstractInterface = ComputerDevice> extends Agent<D> {}

/** Options of {@link agentForComputer}: agent options (spec 2.1) plus device options (4.11). */
export interface AgentForComputerOptions extends AgentOptions, ComputerDeviceOptions {}

/**
 * Creates a {@link ComputerAgent} over the local desktop and connects it (starting Xvfb when
 * `headless`), so a missing display or library fails here rather than at the first step.
 *
 * @throws {MissingDependencyError} when there is no X display, or Xvfb or nut-js is missing
 *   (saying how to get them); {ConnectionError} when no X server answers;
 *   {DeviceNotFoundError} when `displayId` is not a listed display; {ToolError} when Xvfb or
 *   nut-js fails; the option errors of {@link ComputerDevice} and `Agent`. docs/computer.md
 *   "Errors" lists them with their codes. The device's processes are ended before it throws.
 */
export async function agentForComputer(
  options: AgentForComputerOptions = {},
): Promise<ComputerAgent> {
  const device = new ComputerDevice(options);
  try {
    await device.connect();
    return new ComputerAgent(device, options);
  } catch (e) {
    await device.destroy();
    throw e;
  }
}

/** Alias of {@link agentForComputer}. */
export const agentFromComputer: typeof agentForComputer = agentForComputer;

/** Options of {@link agentForRDPComputer}: agent options (spec 2.1) plus RDP options (4.11). */
export interface AgentForRDPComputerOptions extends AgentOptions, RDPDeviceOptions {}

/**
 * Creates a {@link ComputerAgent} over a remote desktop and connects it.
 *
 * @throws {ConnectionError} when the host does not answer; {ToolError} when the client refuses
 *   the credentials or the certificate (quoting it); {MissingDependencyError} when FreeRDP or
 *   Xvfb is missing (each saying what to do); the option errors of {@link RDPDevice} and
 *   `Agent`.
 */
export async function agentForRDPComputer(
  options: AgentForRDPComputerOptions,
): Promise<ComputerAgent<RDPDevice>> {
  const device = new RDPDevice(options);
  try {
    await device.connect();
    return new ComputerAgent(device, options);
  } catch (e) {
    await device.destroy();
    throw e;
  }
}
