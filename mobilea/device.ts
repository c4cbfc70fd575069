/**
 * `MobileADevice`: an Android device as the device seam (`AbstractInterface`), driven through the
 * adb server with `@yume-chan/adb` (spec 4.8).
 *
 * Units: screenshots are in the screen's **physical** pixels (`screencap`). Actions take
 * **logical** pixels: physical / (densityDpi / 160), Android's dp; the device pixel ratio is
 * `densityDpi / 160` (420 dpi -> 2.625). Every shell command gets `-d <displayId>` when
 * `displayId` is set.
 *
 * The class ties together what each module does over the device's {@link BridgeShell}: the
 * screen (`screen.ts`), touches and keys (`input.ts`), typing (`typing.ts`), the keyboard
 * (`keyboard.ts`), screenshots (`screenshot.ts`, `frame_stream.ts`), apps (`apps.ts`), `Pinch`
 * (`pinch.ts`) and the action space (`actions.ts`).
 *
 * @module
 */

import type {
  AbstractInterface,
  DeviceAction,
  FrameStream,
  FrameStreamOptions,
  Point,
  Size,
  TargetIdentity,
} from "@sdk/core";
import {
  checkAppNameResolver,
  holdOpen,
  logDeviceActions,
  SdkTypeError,
  UnsupportedActionError,
  withCustomActions,
} from "@sdk/core";
import { type MobileAActionHost, mobileAActions } from "./actions.ts";
import { launchApp, terminateApp } from "./apps.ts";
import { Bridge } from "./bridge.ts";
import {
  BridgeShell,
  runBridgeShell,
  type RunBridgeShellOptions,
  type ShellResult,
} from "./bridge_shell.ts";
import { startMirrorFrameStream } from "./frame_stream.ts";
import {
  doubleTap,
  dragAndDrop,
  type InputTarget,
  KEYCODE_APP_SWITCH,
  KEYCODE_BACK,
  KEYCODE_HOME,
  KEYCODE_MOVE_END,
  keyevent,
  swipe,
  tap,
} from "./input.ts";
import { androidKeyCode } from "./keys.ts";
import { dismissKeyboard } from "./keyboard.ts";
import { Mirror, type MirrorStatus } from "./mirror.ts";
import { type MobileADeviceOptions, type MobileASettings, readMobileAOptions } from "./options.ts";
import { mobileAPinchAction, PinchChannel } from "./pinch.ts";
import { Screen } from "./screen.ts";
import { capturePng, screenshotDataUri } from "./screenshot.ts";
import { targetsAt } from "./targets.ts";
import { checkText, clearField, typeText } from "./typing.ts";
import { YadbHelper } from "./yadb.ts";

/**
 * An Android device reached through the adb server.
 *
 * Nothing connects in the constructor: the first screenshot, size or action connects (starting
 * a local adb server when none runs) and fails there when the device is not connected.
 *
 * Errors are the SDK's (`@sdk/core`): `MissingDependencyError` (adb, ffmpeg, the scrcpy server
 * jar, the yadb helper), `DeviceNotFoundError`, `ConnectionError` (`refused`, `lost`,
 * `timeout`), `ToolError` (a device command that failed, with its own words),
 * `UnsupportedActionError`, and `SdkTypeError` / `SdkRangeError` for wrong arguments. The
 * connection's sockets and the mirror's ffmpeg do not keep the process alive: a script that ends
 * without `destroy()` exits, and ffmpeg ends with it.
 *
 * @example
 * ```ts ignore
 * import { MobileAAgent, MobileADevice } from "@sdk/mobilea";
 *
 * const device = new MobileADevice("emulator-5554");
 * const agent = new MobileAAgent(device);
 * await agent.launch("com.android.settings");
 * await agent.aiTap("the Network & internet item");
 * await agent.destroy(); // the phone stays connected
 * ```
 */
export class MobileADevice implements AbstractInterface {
  /** Always `"android"`. */
  readonly interfaceType: "android" = "android";
  /** The adb serial of the device. */
  readonly deviceId: string;
  readonly #settings: MobileASettings;
  readonly #shell: BridgeShell;
  readonly #screen: Screen;
  readonly #input: InputTarget;
  readonly #yadb: YadbHelper;
  readonly #pinch: PinchChannel;
  readonly #mirror: Mirror;
  readonly #actions: readonly DeviceAction[];
  readonly #actionsWithPinch: readonly DeviceAction[];
  /**
   * The mirror stream as the observer's frame source (spec 4.8 "Observation"): present only with
   * `mirrorConfig.enabled`. While the mirror is unavailable, frames are screenshots taken at
   * `minIntervalMs` (at least 500 ms) instead.
   */
  readonly startFrameStream?: (options: FrameStreamOptions) => Promise<FrameStream>;
  /**
   * What is at each point (logical pixels), from one `uiautomator dump` of the window in front,
   * read back in the same shell command (mobilea/targets.ts): a node's class, `resource-id`, its
   * content description or text (a text field's typed text left out), and its bounds. Between
   * the actions of one plan the agent compares them (docs/model-protocol.md, "Target checks").
   * Present on the default display only: uiautomator dumps that display's active window. A dump
   * the device does not write (the screen never idles) names nothing: the agent then compares
   * the targets' pixels.
   */
  readonly targetsAt?: (points: readonly Point[]) => Promise<(TargetIdentity | undefined)[]>;
  #resolveApp: (target: string) => string = (target) => target;

  /**
   * Creates the device; connects lazily.
   *
   * @param deviceId the adb serial, as `adb devices` or `getConnectedDevices` (agent.ts) lists
   * it.
   * @param options see {@link MobileADeviceOptions}.
   * @throws {SdkTypeError} for an empty `deviceId`, a non-boolean flag, an unknown
   * `keyboardDismissStrategy`, `imeStrategy` or `screenshotStrategy`, or a malformed custom action.
   * @throws {SdkRangeError} for a negative `keyboardTypeDelay` or `minScreenshotBufferSize`, an
   * unknown `inputStrategy`, `'bulk'` with a positive delay, a `displayId` that is not a
   * non-negative integer, an invalid `remoteBridgePort`, or `screenshotStrategy:
   * 'always-helper'` with a non-zero `displayId`.
   */
  constructor(deviceId: string, options: MobileADeviceOptions = {}) {
    if (typeof deviceId !== "string" || deviceId.trim() === "") {
      throw new SdkTypeError(
        `Cannot create MobileADevice as 'deviceId' must be a non-empty string: current value is ${
          JSON.stringify(deviceId)
        }`,
      );
    }
    this.deviceId = deviceId;
    const bridge = new Bridge(options);
    const settings = readMobileAOptions(options);
    this.#settings = settings;
    // Each new connection looks for the scrcpy server jar, which decides whether Pinch is offered.
    this.#shell = new BridgeShell(bridge, deviceId, (adb) => this.#pinch.check(adb));
    this.#screen = new Screen(this.#shell);
    this.#input = { shell: this.#shell, screen: this.#screen, displayId: settings.displayId };
    this.#yadb = new YadbHelper(this.#shell);
    this.#pinch = new PinchChannel(this.#shell, this.#screen, settings.server);
    this.#mirror = new Mirror(settings.mirror, {
      adb: () => this.#shell.connect(),
      serverPresent: () => this.pinchAvailable(),
      screen: async () => {
        const info = await this.#screen.info(false);
        return { width: info.physicalWidth, height: info.physicalHeight };
      },
    });
    if (this.#mirror.settings.enabled) {
      this.startFrameStream = (streamOptions) =>
        holdOpen(
          startMirrorFrameStream(this.#mirror, () => this.screenshotBase64(), streamOptions),
        );
    }
    if (!settings.displayId) {
      this.targetsAt = async (points) => {
        const { dpr } = await this.size();
        return await holdOpen(targetsAt(this.#shell, dpr, points));
      };
    }
    const builtIn = heldActions(mobileAActions(this.#actionHost()));
    const pinch = heldActions([mobileAPinchAction(this.#pinch, this.#screen, () => this.size())]);
    this.#actions = logDeviceActions(
      withCustomActions("MobileADevice", builtIn, options.customActions),
    );
    this.#actionsWithPinch = logDeviceActions(
      withCustomActions("MobileADevice", [...builtIn, ...pinch], options.customActions),
    );
  }

  /**
   * The screen, physical pixels (the encoding argument is not used: the agent encodes once).
   * With `mirrorConfig.enabled`, the mirror stream's latest frame first
   * (`data:image/jpeg;base64,...`, at most `maxSize` pixels a side). Otherwise, or while the
   * mirror is unavailable, `data:image/png;base64,...` (scaled to `maxSize` when the mirror is
   * enabled): with `screenshotStrategy: 'auto'`, `exec:screencap -p`, then `screencap -p` to a
   * file that is read back, then the yadb helper, each tried when the one before fails (an
   * error, an empty or too small buffer, or data that is not a PNG).
   *
   * @throws {ToolError} naming each method's failure when all fail.
   * @throws {ConnectionError} / {DeviceNotFoundError} when the device is gone or not connected.
   */
  async screenshotBase64(): Promise<string> {
    return await holdOpen(screenshotDataUri(
      this.#mirror,
      () => capturePng(this.#shell, this.#yadb, this.#settings.capture),
    ));
  }

  /**
   * The focused window's app and activity (`dumpsys window`'s `mCurrentFocus`): another app or
   * activity coming to the front ends a plan of several actions (docs/model-protocol.md).
   */
  async screenContext(): Promise<string> {
    const { stdout } = await holdOpen(this.#shell.shell("dumpsys window | grep mCurrentFocus"));
    const focus = / u\d+ ([^\s}]+)\}/.exec(stdout)?.[1];
    return `window ${focus ?? stdout.trim()}`;
  }

  /**
   * Logical size (physical / dpr) and `dpr` = densityDpi / 160, from `wm size` and `wm density`
   * (their override values when set). Asked once, or before every call with
   * `alwaysRefreshScreenInfo`.
   *
   * @throws {ConnectionError} after `destroy()`, or when the device cannot be reached.
   */
  async size(): Promise<Size> {
    if (this.#shell.destroyed) await this.#shell.connect(); // throws: no more bridge commands
    return await holdOpen(this.#screen.size(this.#settings.alwaysRefreshScreenInfo));
  }

  /**
   * The MobileA actions: `Tap`, `DoubleClick`, `Input`, `ClearInput`, `KeyboardPress`, `Scroll`,
   * `Swipe`, `DragAndDrop`, `LongPress`, `PullGesture`, `Launch`, `Terminate`, `RunBridgeShell` (unless
   * `exposeRunBridgeShellAction: false`), `MobileABackButton`, `MobileAHomeButton`,
   * `MobileARecentAppsButton`, `Pinch` (once the connection found the scrcpy server jar at
   * `scrcpyServerPath`: see {@link MobileADevice.pinchAvailable}), then the custom actions. Each
   * `call` throws an `SdkTypeError` naming the action and parameter for a malformed parameter.
   */
  actionSpace(): DeviceAction[] {
    return [...(this.#pinch.present ? this.#actionsWithPinch : this.#actions)];
  }

  /**
   * Whether `Pinch` can run: the scrcpy server jar is at `scrcpyServerPath` on the device (its
   * control channel injects two-finger touches; adb's `input` moves one pointer only). Asked
   * once per connection.
   *
   * @throws {ConnectionError} / {DeviceNotFoundError} when the device cannot be reached.
   */
  async pinchAvailable(): Promise<boolean> {
    return await holdOpen(this.#pinch.available());
  }

  /** Where the scrcpy server jar is looked for, and its release (for messages). */
  get scrcpyServer(): { path: string; version: string } {
    return this.#pinch.server;
  }

  /** `android <deviceId>`, for the report. */
  describe(): Promise<string> {
    return Promise.resolve(`android ${this.deviceId}`);
  }

  /**
   * Makes the planner's `Launch` and `Terminate` actions resolve app names with `resolve` (the
   * agent's `appNameMapping`; `MobileAAgent` calls this). Without it, targets are used as given.
   *
   * @throws {SdkTypeError} when `resolve` is not a function.
   */
  useAppNameMapping(resolve: (target: string) => string): void {
    this.#resolveApp = checkAppNameResolver(resolve, "package name");
  }

  /**
   * The mirror stream's state (spec 3.5): `enabled`, `connected` (frames are being received),
   * `lastError` (why it is unavailable, e.g. ffmpeg or the scrcpy server jar missing) and
   * `retryAfter` (ms since the epoch: when a screenshot tries to connect again after a failure).
   */
  getMirrorStatus(): MirrorStatus {
    return this.#mirror.status();
  }

  /**
   * Disconnects the mirror stream and connects it again now, whatever `retryAfter` says. Does
   * nothing unless `mirrorConfig.enabled`. A failure does not reject: it shows in
   * {@link MobileADevice.getMirrorStatus}.
   */
  async retryMirror(): Promise<void> {
    if (this.#shell.destroyed) await this.#shell.connect(); // throws: destroyed
    await holdOpen(this.#mirror.retry());
  }

  /**
   * Runs `command` in the device's shell (without the `adb shell` prefix).
   *
   * @returns what it printed and its exit code.
   * @throws {UnsupportedActionError} when `exposeRunBridgeShellAction` is `false`.
   * @throws {ConnectionError} when the device is gone (`lost`) or on the time limit (`timeout`).
   * @throws {SdkTypeError} for an empty command.
   * @throws {SdkRangeError} for a `timeout` that is not a finite number > 0.
   */
  async runBridgeShell(command: string, options: RunBridgeShellOptions = {}): Promise<ShellResult> {
    if (!this.#settings.exposeRunBridgeShellAction) {
      throw new UnsupportedActionError(
        "runBridgeShell is disabled: this device was created with exposeRunBridgeShellAction: false",
        "runBridgeShell",
      );
    }
    return await holdOpen(runBridgeShell(this.#shell, command, options));
  }

  /**
   * Closes the connection to the adb server; the device stays connected to it. Idempotent;
   * afterwards every command throws.
   */
  async destroy(): Promise<void> {
    // The mirror and the pinch session close over the connection, so it closes after them.
    await holdOpen(this.#shell.close(async () => {
      await this.#mirror.close();
      await this.#pinch.close();
    }));
  }

  // ---- system actions (also the agent's methods) ---------------------------------------------

  /**
   * Opens `uri`: a web URL (`am start -a android.intent.action.VIEW -d`), a `package/.Activity`
   * (`am start -n`), or a package name (its launcher activity, through `monkey`).
   *
   * @throws {ToolError} with the device's message when the app or activity does not exist
   * (monkey's echo of its arguments left out).
   */
  async launch(uri: string): Promise<void> {
    await holdOpen(launchApp(this.#shell, uri));
  }

  /**
   * Force-stops the app of `uri` (a package name, or `package/.Activity`).
   *
   * @throws {ToolError} when `am force-stop` fails.
   */
  async terminate(uri: string): Promise<void> {
    await holdOpen(terminateApp(this.#shell, uri));
  }

  /** Presses the system Back button (KEYCODE_BACK). */
  async back(): Promise<void> {
    await holdOpen(keyevent(this.#input, KEYCODE_BACK));
  }

  /** Presses the system Home button (KEYCODE_HOME). */
  async home(): Promise<void> {
    await holdOpen(keyevent(this.#input, KEYCODE_HOME));
  }

  /** Presses the system Recent apps button (KEYCODE_APP_SWITCH). */
  async recentApps(): Promise<void> {
    await holdOpen(keyevent(this.#input, KEYCODE_APP_SWITCH));
  }

  // What the action space needs of this device, private parts included.
  #actionHost(): MobileAActionHost {
    const input = this.#input;
    const settings = this.#settings;
    return {
      // A password field (the window dump's password="true") takes a secret: written as ***.
      takesSecret: async (point) => (await this.targetsAt?.([point]))?.[0]?.secret === true,
      exposeRunBridgeShellAction: settings.exposeRunBridgeShellAction,
      size: () => this.size(),
      tap: (point) => tap(input, point),
      doubleTap: (point) => doubleTap(input, point),
      swipe: (from, to, ms) => swipe(input, from, to, ms),
      dragAndDrop: (from, to) => dragAndDrop(input, from, to),
      // From a point to itself, a swipe holds it.
      longPress: (point, ms) => swipe(input, point, point, ms),
      caretToEnd: () => keyevent(input, KEYCODE_MOVE_END),
      key: (keyName) => {
        const code = androidKeyCode(keyName);
        return () => keyevent(input, code);
      },
      checkText: (text) => checkText(this.#yadb, settings.typing, text),
      typeText: (text, overrides, signal) =>
        typeText(input, this.#yadb, settings.typing, text, overrides, signal),
      clearField: () => clearField(input, this.#yadb),
      dismissKeyboard: settings.autoDismissKeyboard
        ? () => dismissKeyboard(input, settings.keyboardDismissStrategy)
        : undefined,
      resolveApp: (target) => this.#resolveApp(target),
      launch: (uri) => this.launch(uri),
      terminate: (uri) => this.terminate(uri),
      runBridgeShell: (command) => this.runBridgeShell(command),
      back: () => this.back(),
      home: () => this.home(),
      recentApps: () => this.recentApps(),
    };
  }
}

/**
 * `actions` whose calls hold the process open while they run (the connection's sockets do not)
 * and reject with the SDK's argument errors (the shared parameter readers throw the built-in
 * ones).
 */
function heldActions(actions: readonly DeviceAction[]): DeviceAction[] {
  return actions.map((action) => ({
    ...action,
    call: (param, context) => holdOpen(Promise.resolve().then(() => action.call(param, context))),
  }));
}
