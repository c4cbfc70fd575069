/**
 * `MobileCDevice`: a HarmonyOS device as the device seam (`AbstractInterface`), driven through
 * the device tool `hdc` (spec 4.10): screenshots with `snapshot_display` and `hdc file recv`,
 * touches, keys and text with `uitest uiInput`, apps with `aa` and `bm`.
 *
 * Units: screenshots are in the screen's **physical** pixels. Actions take **logical** pixels,
 * HarmonyOS's vp: physical / density, where density is the display's `Density` of `hidumper -s
 * DisplayManagerService` (3 -> a 1260 x 2720 screen is 420 x 906.7 vp); `dpr` is that density.
 *
 * The class ties together what each module does over the device's {@link ToolShell}: the screen
 * (`screen.ts`), screenshots (`screenshot.ts`), touches and keys (`input.ts`), typing and the
 * keyboard (`typing.ts`), apps (`apps.ts`) and the action space (`actions.ts`).
 *
 * @module
 */

import type { AbstractInterface, DeviceAction, Point, Size, TargetIdentity } from "@sdk/core";
import {
  checkAppNameResolver,
  holdOpen,
  logDeviceActions,
  SdkTypeError,
  UnsupportedActionError,
  withCustomActions,
} from "@sdk/core";
import { type MobileCActionHost, mobileCActions } from "./actions.ts";
import { Apps } from "./apps.ts";
import { dragAndDrop, type InputTarget, keyEvent, move, touch } from "./input.ts";
import { harmonyKeyEvent } from "./keys.ts";
import { type MobileCDeviceOptions, type MobileCSettings, readMobileCOptions } from "./options.ts";
import { Screen } from "./screen.ts";
import { Screenshots } from "./screenshot.ts";
import { targetsAt } from "./targets.ts";
import { ToolShell } from "./tool_shell.ts";
import { clearField, dismissKeyboard, typeText } from "./typing.ts";

// KEYCODE_VIRTUAL_MULTITASK: the recent-tasks key of @ohos.multimodalInput.keyCode.
const KEY_MULTITASK = "2210";
const KEY_MOVE_END = harmonyKeyEvent("End");

/**
 * A HarmonyOS device reached through hdc.
 *
 * Nothing runs in the constructor: the first screenshot, size or action finds hdc (failing
 * there when it is not installed) and the device (failing when it is not connected).
 *
 * Errors are the SDK's (`@sdk/core`): `MissingDependencyError` (hdc), `DeviceNotFoundError`,
 * `ConnectionError` (`refused`, `lost`, `timeout`), `ToolError` (hdc or a device command that
 * failed, with its own words) and `SdkTypeError` / `SdkRangeError` for wrong arguments. Each hdc
 * run is an adopted child: a script that ends without `destroy()` exits, and no hdc outlives it.
 *
 * @example
 * ```ts ignore
 * import { MobileCAgent, MobileCDevice } from "@sdk/mobilec";
 *
 * const device = new MobileCDevice("127.0.0.1:5555", { autoDismissKeyboard: false });
 * const agent = new MobileCAgent(device);
 * await agent.launch("com.huawei.hmos.settings");
 * await agent.aiTap("the search box");
 * await agent.destroy(); // the device stays connected
 * ```
 */
export class MobileCDevice implements AbstractInterface {
  /** Always `"harmony"`. */
  readonly interfaceType: "harmony" = "harmony";
  /** The connect key of the device (`hdc list targets`). */
  readonly deviceId: string;
  readonly #settings: MobileCSettings;
  readonly #shell: ToolShell;
  readonly #screen: Screen;
  readonly #input: InputTarget;
  readonly #screenshots: Screenshots;
  readonly #apps: Apps;
  readonly #actions: readonly DeviceAction[];
  #resolveApp: (target: string) => string = (target) => target;

  /**
   * Creates the device; runs nothing yet.
   *
   * @param deviceId the connect key, as `hdc list targets` or `getConnectedDevices` (agent.ts)
   * lists it.
   * @param options see {@link MobileCDeviceOptions}.
   * @throws {SdkTypeError} for an empty `deviceId` or `toolPath`, a non-boolean flag, an unknown
   * `keyboardDismissStrategy`, or a malformed custom action.
   * @throws {SdkRangeError} for a negative or non-finite `keyboardTypeDelay`, an unknown
   * `inputStrategy`, or `'bulk'` with a positive delay.
   */
  constructor(deviceId: string, options: MobileCDeviceOptions = {}) {
    if (typeof deviceId !== "string" || deviceId.trim() === "") {
      throw new SdkTypeError(
        `Cannot create MobileCDevice as 'deviceId' must be a non-empty connect key (see ` +
          `\`hdc list targets\`): current value is ${JSON.stringify(deviceId)}`,
      );
    }
    this.deviceId = deviceId;
    const settings = readMobileCOptions(options);
    this.#settings = settings;
    this.#shell = new ToolShell(deviceId, settings.toolOptions, settings.toolTimeout);
    this.#screen = new Screen(this.#shell);
    this.#input = { shell: this.#shell, screen: this.#screen };
    this.#screenshots = new Screenshots(this.#shell);
    this.#apps = new Apps(this.#shell);
    const builtIn = mobileCActions(this.#actionHost()).map((action): DeviceAction => ({
      ...action,
      // The shared parameter readers throw the built-in TypeError: thrown as the SDK's.
      call: (param, context) => holdOpen(Promise.resolve().then(() => action.call(param, context))),
    }));
    this.#actions = logDeviceActions(
      withCustomActions("MobileCDevice", builtIn, options.customActions),
    );
  }

  /**
   * The screen as `data:image/jpeg;base64,...`, physical pixels: `snapshot_display -f` to
   * `DEVICE_SCREENSHOT_PATH` (screenshot.ts), then `hdc file recv` into a temporary folder (the
   * encoding argument is not used: the device writes JPEG).
   *
   * @throws {ConnectionError} after `destroy()` (`lost`); {ToolError} with hdc's or the
   * device's message when it fails; the errors of the device's hdc runs.
   */
  async screenshotBase64(): Promise<string> {
    this.#shell.checkLive();
    return await this.#screenshots.take();
  }

  /**
   * Logical size (physical / density) and `dpr` = density, from `hidumper -s RenderService -a
   * screen` (render resolution) and `hidumper -s DisplayManagerService -a -a` (`Density`; 1 when
   * the device does not report it). Asked once.
   *
   * @throws {ConnectionError} after `destroy()` (`lost`); {ToolError} when the screen size
   * cannot be read.
   */
  async size(): Promise<Size> {
    this.#shell.checkLive();
    const { width, height, density } = await this.#screen.info();
    return { width: width / density, height: height / density, dpr: density };
  }

  /**
   * The MobileC actions: `Tap`, `DoubleClick`, `Input`, `ClearInput`, `KeyboardPress`, `Scroll`,
   * `Swipe`, `DragAndDrop`, `LongPress`, `Launch`, `Terminate`, `RunToolShell` (unless
   * `exposeRunToolShellAction: false`), `MobileCBackButton`, `MobileCHomeButton`, `MobileCRecentAppsButton`, then the custom actions
   * (no `Pinch`: uitest's command line has no two-finger gesture).
   */
  actionSpace(): DeviceAction[] {
    return [...this.#actions];
  }

  /**
   * The app in front and its ability (`aa dump -l`), or `home`: another app coming to the front
   * ends a plan of several actions (docs/model-protocol.md).
   *
   * @throws {ConnectionError} after `destroy()`; the errors of the device's hdc runs.
   */
  async screenContext(): Promise<string> {
    this.#shell.checkLive();
    return `app ${(await this.#apps.foreground()) ?? "home"}`;
  }

  /**
   * What is at each point (logical pixels), from one `uitest dumpLayout` read back in the same
   * `hdc shell` run (mobilec/targets.ts): a component's type, id, description or text (a text
   * field's typed text left out) and bounds. Between the actions of one plan the agent compares
   * them (docs/model-protocol.md, "Target checks"). When uitest writes no layout, nothing is
   * named and the agent compares the targets' pixels.
   *
   * @throws {ConnectionError} after `destroy()`; the errors of the device's hdc runs.
   */
  async targetsAt(points: readonly Point[]): Promise<(TargetIdentity | undefined)[]> {
    this.#shell.checkLive();
    const { density } = await this.#screen.info();
    return await targetsAt(this.#shell, density, points);
  }

  /** `harmony <deviceId>`, for the report. */
  describe(): Promise<string> {
    return Promise.resolve(`harmony ${this.deviceId}`);
  }

  /** The device's local time (`date`), for `useDeviceTime`. */
  async getDeviceLocalTimeString(): Promise<string> {
    return (await this.#shell.shell("date")).trim();
  }

  /**
   * Makes the planner's `Launch` and `Terminate` actions resolve app names with `resolve` (the
   * agent's `appNameMapping`; `MobileCAgent` calls this). Without it, targets are used as given.
   *
   * @throws {SdkTypeError} when `resolve` is not a function.
   */
  useAppNameMapping(resolve: (target: string) => string): void {
    this.#resolveApp = checkAppNameResolver(resolve, "bundle name");
  }

  /**
   * Runs `command` in the device's shell (`hdc -t <id> shell <command>`) and resolves what it
   * printed. hdc does not pass on the command's exit code, so a failing command resolves too.
   *
   * @throws {UnsupportedActionError} when the device was created with
   * `exposeRunToolShellAction: false` (nothing runs).
   * @throws {SdkTypeError} for an empty command.
   * @throws {ConnectionError} after `destroy()`; {MissingDependencyError} when hdc is missing;
   * {DeviceNotFoundError} for an unknown device; {ToolError} when hdc fails.
   */
  async runToolShell(command: string): Promise<string> {
    if (!this.#settings.exposeRunToolShellAction) {
      throw new UnsupportedActionError(
        "runToolShell is disabled: this device was created with exposeRunToolShellAction: false",
        "runToolShell",
      );
    }
    if (typeof command !== "string" || command.trim() === "") {
      throw new SdkTypeError(
        `runToolShell needs a non-empty command: current value is ${JSON.stringify(command)}`,
      );
    }
    return await this.#shell.shell(command);
  }

  /** Ends this device object: no hdc command runs after it; its temporary folder is deleted. */
  async destroy(): Promise<void> {
    await this.#shell.close(() => this.#screenshots.close());
  }

  // ---- system actions (also the agent's methods) ---------------------------------------------

  /**
   * Opens `uri`: an http(s) URL in the browser (`aa start -A ohos.want.action.viewData -U`), an
   * explicit `bundle/Ability` (`aa start -a Ability -b bundle`), or a bundle name, whose launch
   * ability is read from `bm dump -n <bundle>` (its entry module's main ability, else the
   * ability with the home skill).
   *
   * @throws {ToolError} with the device's message when the bundle or ability does not exist.
   */
  async launch(uri: string): Promise<void> {
    await this.#apps.launch(uri);
  }

  /**
   * Force-stops the app of `uri` (a bundle name, or `bundle/Ability`: only the bundle is used).
   *
   * @throws {ToolError} with the device's message when the bundle does not exist.
   */
  async terminate(uri: string): Promise<void> {
    await this.#apps.terminate(uri);
  }

  /** Presses the system Back key (`uitest uiInput keyEvent Back`). */
  async back(): Promise<void> {
    await keyEvent(this.#shell, "Back");
  }

  /** Presses the system Home key (`uitest uiInput keyEvent Home`). */
  async home(): Promise<void> {
    await keyEvent(this.#shell, "Home");
  }

  /** Opens the recent tasks (`uitest uiInput keyEvent 2210`, KEYCODE_VIRTUAL_MULTITASK). */
  async recentApps(): Promise<void> {
    await keyEvent(this.#shell, KEY_MULTITASK);
  }

  // What the action space needs of this device, private parts included.
  #actionHost(): MobileCActionHost {
    const shell = this.#shell;
    const input = this.#input;
    const settings = this.#settings;
    return {
      exposeRunToolShellAction: settings.exposeRunToolShellAction,
      size: () => this.size(),
      tap: (point) => touch(input, "click", point),
      doubleTap: (point) => touch(input, "doubleClick", point),
      swipe: (from, to, ms) => move(input, "swipe", from, to, ms),
      dragAndDrop: (from, to) => dragAndDrop(input, from, to),
      // The system's long-press time: uitest's longClick takes no duration.
      longPress: (point) => touch(input, "longClick", point),
      caretToEnd: () => keyEvent(shell, KEY_MOVE_END),
      key: (keyName) => {
        const key = harmonyKeyEvent(keyName);
        return () => keyEvent(shell, key);
      },
      typeText: (text, overrides, signal) =>
        typeText(shell, settings.typing, text, overrides, signal),
      clearField: () => clearField(shell),
      dismissKeyboard: settings.autoDismissKeyboard
        ? () => dismissKeyboard(shell, settings.keyboardDismissStrategy)
        : undefined,
      resolveApp: (target) => this.#resolveApp(target),
      launch: (uri) => this.launch(uri),
      terminate: (uri) => this.terminate(uri),
      runToolShell: (command) => this.runToolShell(command),
      back: () => this.back(),
      home: () => this.home(),
      recentApps: () => this.recentApps(),
    };
  }
}
