/**
 * `MobileBAgent`: an `Agent` (an {@link AppAgent}) over a {@link MobileBDevice} with the iOS
 * methods of spec 4.9 (`launch`, `terminate`, `runDriverRequest`, `home`, `appSwitcher`), and the
 * factory `agentFromDeviceDriver`.
 *
 * @module
 */

import { AppAgent, SdkTypeError } from "@sdk/core";
import type { AgentOptions } from "@sdk/core";
import type { MobileBDevice } from "./device.ts";
import type { MobileBDeviceOptions } from "./options.ts";
import { loadDeviceClass } from "./device_class.ts";
import { DRIVER_REQUEST_METHODS, type DriverRequestMethod } from "./wda.ts";

/** Options of {@link MobileBAgent}: the shared agent options (spec 2.1) plus `appNameMapping`. */
export interface MobileBAgentOptions extends AgentOptions {
  /**
   * App name -> bundle identifier, for `launch` and `terminate` (and the planner's `Launch` and
   * `Terminate` actions). Names match case-insensitively; an unmapped target is used as given.
   * These mappings outrank {@link DEFAULT_APP_NAME_MAPPING}.
   */
  appNameMapping?: Record<string, string>;
}

/** Built-in app names of iOS's own apps (the user's `appNameMapping` outranks them). */
export const DEFAULT_APP_NAME_MAPPING: Readonly<Record<string, string>> = {
  Settings: "com.apple.Preferences",
  Safari: "com.apple.mobilesafari",
  Photos: "com.apple.mobileslideshow",
  Camera: "com.apple.camera",
  Messages: "com.apple.MobileSMS",
  Phone: "com.apple.mobilephone",
  Mail: "com.apple.mobilemail",
  Maps: "com.apple.Maps",
  Calendar: "com.apple.mobilecal",
  Notes: "com.apple.mobilenotes",
  Reminders: "com.apple.reminders",
  Clock: "com.apple.mobiletimer",
  Calculator: "com.apple.calculator",
  Contacts: "com.apple.MobileAddressBook",
  Files: "com.apple.DocumentsApp",
  "App Store": "com.apple.AppStore",
};

/** The parameters of {@link MobileBAgent.runDriverRequest} (spec 4.9). */
export interface RunDriverRequestParams {
  /** `GET`, `POST`, `DELETE` or `PUT`. */
  method: DriverRequestMethod;
  /** The route's path, e.g. `/status`; `:sessionId` is replaced by the session in use. */
  endpoint: string;
  /** The JSON body (POST and PUT). */
  data?: unknown;
}

/**
 * An agent bound to one iOS device through WebDriverAgent. `destroy()` deletes the WDA session
 * the device created (a session given as `sessionId` is left alive); WDA keeps running.
 * `launch(target)` takes a web URL, a URL scheme (`tel:`, `mailto:`), a bundle id or an app name
 * of `appNameMapping`; `terminate(bundleId)` a bundle id or a mapped app name; both are recorded in
 * the report.
 *
 * @example
 * ```ts ignore
 * import { agentFromDeviceDriver } from "@sdk/mobileb";
 *
 * const agent = await agentFromDeviceDriver({ appNameMapping: { Notes: "com.example.notes" } });
 * await agent.launch("Notes");
 * await agent.aiAct("open the first note and type 'hello' into its text field");
 * await agent.home();
 * await agent.destroy();
 * ```
 */
export class MobileBAgent extends AppAgent<MobileBDevice> {
  /**
   * Creates the agent over a device.
   *
   * @throws {SdkTypeError} for an `appNameMapping` that is not an object of non-empty strings, and
   * the errors of the shared options (see `Agent`).
   */
  constructor(device: MobileBDevice, options: MobileBAgentOptions = {}) {
    super(device, options, DEFAULT_APP_NAME_MAPPING, "bundle id");
  }

  /**
   * Sends one request to WebDriverAgent (spec 4.9). Recorded in the report as a
   * `runDriverRequest` call.
   *
   * @returns the `value` of WDA's answer.
   * @throws {SdkTypeError} for a method other than GET, POST, DELETE, PUT or an endpoint that
   * does not start with `/`.
   * @throws {ToolError} (tool `"WebDriverAgent"`) with WDA's `error` and `message` when it answers
   * with an error; {ConnectionError} when WDA cannot be reached.
   */
  async runDriverRequest(params: RunDriverRequestParams): Promise<unknown> {
    if (typeof params !== "object" || params === null) {
      throw new SdkTypeError(
        `runDriverRequest needs { method, endpoint, data? }: current value is ${
          JSON.stringify(params)
        }`,
      );
    }
    const { method, endpoint, data } = params;
    if (!DRIVER_REQUEST_METHODS.includes(String(method).toUpperCase() as DriverRequestMethod)) {
      throw new SdkTypeError(
        `runDriverRequest: 'method' must be one of ${DRIVER_REQUEST_METHODS.join(", ")}: ` +
          `current value is ${JSON.stringify(method)}`,
      );
    }
    return await this.recordedCall(
      "runDriverRequest",
      `${method} ${endpoint}`,
      "RunDriverRequest",
      { method, endpoint, ...(data === undefined ? {} : { data }) },
      () => this.interface.runDriverRequest(method, endpoint, data),
    );
  }

  /** Goes to the Home screen. Recorded in the report as a `home` call. */
  async home(): Promise<void> {
    await this.recordedCall("home", "Home", "MobileBHomeButton", {}, () => this.interface.home());
  }

  /** Opens the app switcher. Recorded in the report as an `appSwitcher` call. */
  async appSwitcher(): Promise<void> {
    await this.recordedCall(
      "appSwitcher",
      "App switcher",
      "MobileBAppSwitcher",
      {},
      () => this.interface.appSwitcher(),
    );
  }
}

/** Options of {@link agentFromDeviceDriver}: agent options plus device options. */
export interface AgentFromDeviceDriverOptions extends MobileBAgentOptions, MobileBDeviceOptions {}

/**
 * Creates a ready {@link MobileBAgent}: the device (the class of `iOSDeviceClassOverride` or
 * `SDK_MOBILEB_DEVICE_CLASS_OVERRIDE` when set, else {@link MobileBDevice}) with the device
 * options, connected (session created or checked, screen read), and the agent over it.
 *
 * @throws {ConnectionError} `refused` when WebDriverAgent is not running (saying how to start
 * it), `timeout` when it does not answer within `driverConnectTimeout`.
 * @throws {MissingDependencyError} / {SdkTypeError} when the override module cannot be loaded
 * or exports no device class.
 */
export async function agentFromDeviceDriver(
  options: AgentFromDeviceDriverOptions = {},
): Promise<MobileBAgent> {
  const Device = await loadDeviceClass(options.iOSDeviceClassOverride);
  const device = new Device(options);
  try {
    await device.connect();
    return new MobileBAgent(device, options);
  } catch (error) {
    await device.destroy();
    throw error;
  }
}
