/**
 * `MobileAAgent`: an `Agent` (an {@link AppAgent}) over a {@link MobileADevice} with the Android
 * methods of spec 4.8 (`launch`, `terminate`, `runBridgeShell`, `back`, `home`, `recentApps`), and
 * the factories `agentFromBridgeDevice`, `getConnectedDevices` and
 * `getConnectedDevicesWithDetails`.
 *
 * @module
 */

import { AppAgent, MissingDependencyError } from "@sdk/core";
import type { AgentOptions, AiPinchOptions, TUserPrompt } from "@sdk/core";
import { Bridge, type BridgeOptions, notConnected } from "./bridge.ts";
import type { RunBridgeShellOptions } from "./bridge_shell.ts";
import { MobileADevice } from "./device.ts";
import { shellFailure } from "./errors.ts";
import type { MobileADeviceOptions } from "./options.ts";
import { pinchUnavailable } from "./pinch.ts";
import { DEFAULT_SCRCPY_SERVER_PATH, DEFAULT_SCRCPY_SERVER_VERSION } from "./scrcpy.ts";

/** Options of {@link MobileAAgent}: the shared agent options (spec 2.1) plus `appNameMapping`. */
export interface MobileAAgentOptions extends AgentOptions {
  /**
   * Friendly app name -> package name, for `launch` and `terminate` (and the planner's `Launch`
   * and `Terminate` actions). Names match case-insensitively; an unmapped target is used as
   * given. These mappings outrank {@link DEFAULT_APP_NAME_MAPPING}.
   */
  appNameMapping?: Record<string, string>;
}

/** Built-in app names (the user's `appNameMapping` outranks them). */
export const DEFAULT_APP_NAME_MAPPING: Readonly<Record<string, string>> = {
  Settings: "com.android.settings",
  Chrome: "com.android.chrome",
  Camera: "com.android.camera2",
  Contacts: "com.android.contacts",
  Phone: "com.android.dialer",
  Messages: "com.google.android.apps.messaging",
  Calculator: "com.google.android.calculator",
  Calendar: "com.google.android.calendar",
  Clock: "com.google.android.deskclock",
  Files: "com.google.android.documentsui",
  Gmail: "com.google.android.gm",
  Maps: "com.google.android.apps.maps",
  "Play Store": "com.android.vending",
  Photos: "com.google.android.apps.photos",
  YouTube: "com.google.android.youtube",
};

/**
 * An agent bound to one Android device. `destroy()` closes its connection to the adb server; the
 * device stays connected. `launch(target)` takes a web URL, `package/.Activity`, a package name or
 * an app name of `appNameMapping`; `terminate(uri)` a package name, a mapped app name, or
 * `package/.Activity` (only the package is used); both are recorded in the report.
 *
 * @example
 * ```ts ignore
 * import { agentFromBridgeDevice } from "@sdk/mobilea";
 *
 * const agent = await agentFromBridgeDevice(undefined, { appNameMapping: { Notes: "com.example.notes" } });
 * await agent.launch("Notes");
 * await agent.aiAct("open the first note and type 'hello' into its text field");
 * await agent.home();
 * await agent.destroy();
 * ```
 */
export class MobileAAgent extends AppAgent<MobileADevice> {
  /**
   * Creates the agent over a device.
   *
   * @throws {TypeError} for an `appNameMapping` that is not an object of strings, and the
   * errors of the shared options (see `Agent`): the checks of `@sdk/core`, which throw the
   * built-in classes (`agentFromBridgeDevice` throws them as `SdkTypeError` / `SdkRangeError`).
   */
  constructor(device: MobileADevice, options: MobileAAgentOptions = {}) {
    super(device, options, DEFAULT_APP_NAME_MAPPING, "package name");
  }

  /**
   * Runs `command` in the device's shell (without the `adb shell` prefix). Recorded in the
   * report as a `runBridgeShell` call (its output is the command's stdout).
   *
   * @param options `timeout` in ms (default 20000).
   * @returns its standard output.
   * @throws {UnsupportedActionError} when the device was created with
   * `exposeRunBridgeShellAction: false`.
   * @throws {ToolError} when the command exits with a non-zero code (`status`; the message has
   * its stderr).
   * @throws {ConnectionError} on the time limit (`timeout`) or when the device is gone (`lost`).
   */
  async runBridgeShell(command: string, options?: RunBridgeShellOptions): Promise<string> {
    return await this.recordedCall(
      "runBridgeShell",
      String(command),
      "RunBridgeShell",
      { command },
      async () => {
        const result = await this.interface.runBridgeShell(command, options);
        if (result.exitCode !== 0) {
          throw shellFailure(
            command,
            result.exitCode,
            result.stdout,
            result.stderr,
            "runBridgeShell: ",
          );
        }
        return result.stdout;
      },
    );
  }

  /** Presses the system Back button. Recorded in the report as a `back` call. */
  async back(): Promise<void> {
    await this.recordedCall("back", "Back", "MobileABackButton", {}, () => this.interface.back());
  }

  /** Presses the system Home button. Recorded in the report as a `home` call. */
  async home(): Promise<void> {
    await this.recordedCall("home", "Home", "MobileAHomeButton", {}, () => this.interface.home());
  }

  /** Opens the recent apps screen. Recorded in the report as a `recentApps` call. */
  async recentApps(): Promise<void> {
    await this.recordedCall(
      "recentApps",
      "Recent apps",
      "MobileARecentAppsButton",
      {},
      () => this.interface.recentApps(),
    );
  }

  /**
   * Pinches with two fingers (spec 4.2 `aiPinch`) through the scrcpy server's control channel:
   * adb's `input` command moves one pointer only. Needs the scrcpy server jar on the device at
   * the device's `scrcpyServerPath` (default {@link DEFAULT_SCRCPY_SERVER_PATH}); without it
   * `Pinch` is not in the action space and this rejects before any model call.
   *
   * @throws {MissingDependencyError} (`scrcpy-server`, as a rejected promise) saying what to
   * push where when the jar is not on the device; the errors of `Agent.aiPinch` otherwise.
   */
  override async aiPinch(locate: TUserPrompt | undefined, options: AiPinchOptions): Promise<void> {
    if (!(await this.interface.pinchAvailable())) {
      throw new MissingDependencyError(
        pinchUnavailable(this.interface.scrcpyServer),
        "scrcpy-server",
      );
    }
    return await super.aiPinch(locate, options);
  }
}

/** Why `aiPinch` rejects on MobileA without the scrcpy server jar (at the default path). */
export const PINCH_UNAVAILABLE: string = pinchUnavailable({
  path: DEFAULT_SCRCPY_SERVER_PATH,
  version: DEFAULT_SCRCPY_SERVER_VERSION,
});

/** A device the adb server lists as online and authorized. */
export interface ConnectedDevice {
  /** The adb serial (`adb devices`), to give `MobileADevice` or `agentFromBridgeDevice`. */
  udid: string;
  /** Always `"device"` (online and authorized). */
  state: "device";
}

/** A connected device with what it reports about itself; unavailable fields are undefined. */
export interface ConnectedDeviceDetails extends ConnectedDevice {
  /** `ro.product.brand`. */
  brand: string | undefined;
  /** `ro.product.model`. */
  model: string | undefined;
  /** Screen size in physical pixels (`wm size`). */
  resolution: { width: number; height: number } | undefined;
  /** Screen density in dpi (`wm density`); the device pixel ratio is `density / 160`. */
  density: number | undefined;
}

/**
 * The devices the adb server lists as online and authorized (a local server is started when
 * none runs).
 *
 * @throws {MissingDependencyError} (`adb`) when adb must be started and is not installed
 * (saying how to install it).
 * @throws {ConnectionError} when the server cannot be reached.
 * @throws {SdkTypeError} / {SdkRangeError} for malformed bridge options.
 */
export async function getConnectedDevices(
  options: BridgeOptions = {},
): Promise<ConnectedDevice[]> {
  const devices = await new Bridge(options).devices();
  return devices.map((d) => ({ udid: d.serial, state: "device" as const }));
}

/**
 * {@link getConnectedDevices} with brand, model, resolution and density, read from each device.
 * A field the device does not report is undefined.
 *
 * @throws as {@link getConnectedDevices}.
 */
export async function getConnectedDevicesWithDetails(
  options: BridgeOptions = {},
): Promise<ConnectedDeviceDetails[]> {
  const listed = await getConnectedDevices(options);
  const details: ConnectedDeviceDetails[] = [];
  for (const device of listed) {
    const probe = new MobileADevice(device.udid, { ...options, exposeRunBridgeShellAction: true });
    try {
      const read = async (command: string): Promise<string | undefined> => {
        try {
          const result = await probe.runBridgeShell(command, { timeout: 10_000 });
          const text = result.stdout.trim();
          return result.exitCode === 0 && text !== "" ? text : undefined;
        } catch {
          return undefined;
        }
      };
      const size = /(?:Override|Physical) size:\s*(\d+)x(\d+)/.exec((await read("wm size")) ?? "");
      const dpi = /(?:Override|Physical) density:\s*(\d+)/.exec(
        (await read("wm density")) ?? "",
      );
      details.push({
        ...device,
        brand: await read("getprop ro.product.brand"),
        model: await read("getprop ro.product.model"),
        resolution: size ? { width: Number(size[1]), height: Number(size[2]) } : undefined,
        density: dpi ? Number(dpi[1]) : undefined,
      });
    } finally {
      await probe.destroy();
    }
  }
  return details;
}

/** Options of {@link agentFromBridgeDevice}: agent options plus device options. */
export interface AgentFromBridgeDeviceOptions extends MobileAAgentOptions, MobileADeviceOptions {}

/**
 * Creates a {@link MobileAAgent} over a connected device.
 *
 * @param deviceId the adb serial; the first connected device when left out.
 * @param options agent options plus device options (`bridgePath`, `remoteBridgeHost`,
 * `remoteBridgePort` are also used to find the device).
 * @throws {DeviceNotFoundError} when no device is connected, or `deviceId` is not among the
 * connected ones (the message and `available` list them).
 * @throws {MissingDependencyError} when adb is not installed (saying how to install it).
 * @throws {ConnectionError} when the adb server cannot be reached.
 * @throws {SdkTypeError} / {SdkRangeError} for malformed agent or device options.
 */
export async function agentFromBridgeDevice(
  deviceId?: string,
  options: AgentFromBridgeDeviceOptions = {},
): Promise<MobileAAgent> {
  const devices = await getConnectedDevices(options);
  const where = new Bridge(options).where;
  let udid = deviceId;
  if (
    (udid === undefined && devices.length === 0) ||
    (udid !== undefined && !devices.some((d) => d.udid === udid))
  ) {
    throw notConnected(udid, devices.map((d) => d.udid), where);
  }
  udid ??= devices[0].udid;
  const device = new MobileADevice(udid, options);
  return new MobileAAgent(device, options);
}
