/**
 * `MobileCAgent`: an `Agent` (an {@link AppAgent}) over a {@link MobileCDevice} with the HarmonyOS
 * methods of spec 4.10 (`launch`, `terminate`, `runToolShell`, `back`, `home`, `recentApps`), and
 * the factories `agentFromToolDevice` and `getConnectedDevices`.
 *
 * @module
 */

import { AppAgent, DeviceNotFoundError, UnsupportedActionError } from "@sdk/core";
import type { AgentOptions, AiPinchOptions, TUserPrompt } from "@sdk/core";
import { listTargets, type ToolOptions } from "./tool.ts";
import { MobileCDevice } from "./device.ts";
import type { MobileCDeviceOptions } from "./options.ts";

/** Options of {@link MobileCAgent}: the shared agent options (spec 2.1) plus `appNameMapping`. */
export interface MobileCAgentOptions extends AgentOptions {
  /**
   * App name -> bundle name (its launch ability is read from the bundle's metadata) or an
   * explicit `bundle/Ability` (used as given), for `launch` and `terminate` and the planner's
   * `Launch` and `Terminate`. Names match case-insensitively; an unmapped target is used as
   * given. These mappings outrank {@link DEFAULT_APP_NAME_MAPPING}.
   */
  appNameMapping?: Record<string, string>;
}

/** Built-in app names of HarmonyOS phones (the user's `appNameMapping` outranks them). */
export const DEFAULT_APP_NAME_MAPPING: Readonly<Record<string, string>> = {
  Settings: "com.huawei.hmos.settings",
  Camera: "com.huawei.hmos.camera",
  Browser: "com.huawei.hmos.browser",
  Gallery: "com.huawei.hmos.photos",
  Calendar: "com.huawei.hmos.calendar",
  Clock: "com.huawei.hmos.clock",
  Notepad: "com.huawei.hmos.notepad",
  Files: "com.huawei.hmos.filemanager",
};

/** Why `aiPinch` rejects on MobileC. */
export const PINCH_UNAVAILABLE: string =
  "aiPinch is not available on MobileC: the device tool's uitest command line injects one " +
  "finger only (click, swipe, fling, drag), so a two-finger pinch cannot be sent over hdc; " +
  "Pinch is not in the MobileC action space (spec 4.2)";

/**
 * An agent bound to one HarmonyOS device. `destroy()` ends the device object; the device stays
 * connected. `launch(uri)` takes an http(s) URL, `bundle/Ability`, a bundle name (its launch
 * ability read from the bundle's metadata) or an app name of `appNameMapping`; `terminate(uri)` a
 * bundle name, a mapped app name, or `bundle/Ability` (only the bundle is used); both are recorded
 * in the report.
 *
 * @example
 * ```ts ignore
 * import { agentFromToolDevice } from "@sdk/mobilec";
 *
 * const agent = await agentFromToolDevice(undefined, { appNameMapping: { Notes: "com.example.notes" } });
 * await agent.launch("Notes");
 * await agent.aiAct("open the first note and type 'hello' into its text field");
 * await agent.home();
 * await agent.destroy();
 * ```
 */
export class MobileCAgent extends AppAgent<MobileCDevice> {
  /**
   * Creates the agent over a device.
   *
   * @throws {TypeError} for an `appNameMapping` that is not an object of non-empty strings, and
   * the errors of the shared options (see `Agent`): the checks of `@sdk/core`, which throw the
   * built-in classes (`agentFromToolDevice` throws them as `SdkTypeError` / `SdkRangeError`).
   */
  constructor(device: MobileCDevice, options: MobileCAgentOptions = {}) {
    super(device, options, DEFAULT_APP_NAME_MAPPING, "bundle name or bundle/Ability");
  }

  /**
   * Runs `command` in the device's shell (`hdc shell`, without the prefix) and resolves what it
   * printed (hdc does not pass on the command's exit code). Recorded in the report as a
   * `runToolShell` call.
   *
   * @throws {UnsupportedActionError} when the device was created with
   * `exposeRunToolShellAction: false`.
   * @throws {MissingDependencyError} when hdc is missing; {ConnectionError} (`lost`) when the
   * device is gone; {ToolError} when hdc fails.
   */
  async runToolShell(command: string): Promise<string> {
    return await this.recordedCall(
      "runToolShell",
      String(command),
      "RunToolShell",
      { command },
      () => this.interface.runToolShell(command),
    );
  }

  /** Presses the system Back key. Recorded in the report as a `back` call. */
  async back(): Promise<void> {
    await this.recordedCall("back", "Back", "MobileCBackButton", {}, () => this.interface.back());
  }

  /** Presses the system Home key. Recorded in the report as a `home` call. */
  async home(): Promise<void> {
    await this.recordedCall("home", "Home", "MobileCHomeButton", {}, () => this.interface.home());
  }

  /** Opens the recent tasks. Recorded in the report as a `recentApps` call. */
  async recentApps(): Promise<void> {
    await this.recordedCall(
      "recentApps",
      "Recent apps",
      "MobileCRecentAppsButton",
      {},
      () => this.interface.recentApps(),
    );
  }

  /**
   * Not available on MobileC (spec 4.2): always rejects, with {@link PINCH_UNAVAILABLE}.
   *
   * @throws {UnsupportedActionError} (`aiPinch`) always (as a rejected promise).
   */
  override aiPinch(_locate: TUserPrompt | undefined, _options: AiPinchOptions): Promise<void> {
    return Promise.reject(new UnsupportedActionError(PINCH_UNAVAILABLE, "aiPinch"));
  }
}

/** A device `hdc list targets` lists. */
export interface ConnectedDevice {
  /** Its connect key (`IP:port` over the network, the serial over USB), for `deviceId`. */
  udid: string;
}

/**
 * The devices `hdc list targets` lists.
 *
 * @param options where hdc is (`toolPath`; default `TOOL_HOME`, `PATH`, install paths).
 * @throws {MissingDependencyError} (`hdc`) when hdc is not found (saying where it looked and how
 * to install it); {ConnectionError} when its server does not answer; {ToolError} when it fails.
 */
export async function getConnectedDevices(options: ToolOptions = {}): Promise<ConnectedDevice[]> {
  return (await listTargets(options)).map((udid) => ({ udid }));
}

/** Options of {@link agentFromToolDevice}: agent options plus device options. */
export interface AgentFromToolDeviceOptions extends MobileCAgentOptions, MobileCDeviceOptions {}

/**
 * Creates a {@link MobileCAgent} over a connected device.
 *
 * @param deviceId the connect key; the first device `hdc list targets` lists when left out.
 * @param options agent options plus device options (`toolPath` also finds the devices).
 * @throws {DeviceNotFoundError} when no device is connected, or `deviceId` is not among the
 * connected ones (the message and `available` list them); {MissingDependencyError} when hdc is
 * not found; {SdkTypeError} / {SdkRangeError} for malformed agent or device options.
 */
export async function agentFromToolDevice(
  deviceId?: string,
  options: AgentFromToolDeviceOptions = {},
): Promise<MobileCAgent> {
  const devices = await getConnectedDevices(options);
  let udid = deviceId;
  if (udid === undefined) {
    if (devices.length === 0) {
      throw new DeviceNotFoundError(
        "No HarmonyOS device is connected: `hdc list targets` lists none (connect one over USB, " +
          "or with `hdc tconn <IP:port>`)",
        { wanted: "", available: [] },
      );
    }
    udid = devices[0].udid;
  } else if (!devices.some((d) => d.udid === udid)) {
    const available = devices.map((d) => d.udid);
    throw new DeviceNotFoundError(
      `HarmonyOS device ${JSON.stringify(udid)} is not connected` +
        (devices.length
          ? `; connected devices: ${available.join(", ")}`
          : "; `hdc list targets` lists none"),
      { wanted: udid, available },
    );
  }
  const device = new MobileCDevice(udid, options);
  return new MobileCAgent(device, options);
}
