/**
 * `MobileADevice`: an Android device as the device seam (`AbstractInterface`), driven through the
 * adb server with `@yume-chan/adb` (spec 4.8).
 *
 * Units: screenshots are in the screen's **physical** pixels (`screencap`). Actions take
 * **logical** pixels: physical / (densityDpi / 160), Android's dp; the device pixel ratio is
 * `densityDpi / 160` (420 dpi -> 2.625). Every shell command gets `-d <displayId>` when
 * `displayId` is set.
 *
 * @module
 */

import type { Adb } from "@yume-chan/adb";
import type {
  AbstractInterface,
  ActionParams,
  DeviceAction,
  FrameStream,
  FrameStreamOptions,
  InputActionOptions,
  InputStrategy,
  LocatedElement,
  Point,
  Size,
} from "@sdk/core";
import {
  checkBooleanOptions,
  checkInputOptions,
  clearInputAction,
  deviceAction,
  doubleClickAction,
  dragAndDropAction,
  encodeBase64,
  getEnv,
  INPUT_MODES,
  inputAction,
  keyboardPressAction,
  logDeviceActions,
  longPressAction,
  PINCH_DIRECTIONS,
  pinchAction,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
  scrollAction,
  scrollStrokes,
  shellQuote,
  sleep,
  swipeAction,
  swipeEnds,
  tapAction,
  typeSettings,
  withCustomActions,
} from "@sdk/core";
import { Bridge, type BridgeOptions } from "./bridge.ts";
import { androidKeyCode } from "./keys.ts";
import {
  DEFAULT_MIRROR_BIT_RATE,
  DEFAULT_MIRROR_IDLE_TIMEOUT_MS,
  DEFAULT_MIRROR_RESET_FRAME_TIMEOUT_MS,
  Mirror,
  type MirrorStatus,
} from "./mirror.ts";
import { scalePngToMaxSize } from "./mirror_scale.ts";
import {
  DEFAULT_SCRCPY_SERVER_PATH,
  DEFAULT_SCRCPY_SERVER_VERSION,
  scrcpyJarHint,
  type ScrcpySession,
  startScrcpySession,
} from "./scrcpy.ts";
import { DEFAULT_PINCH_MS, pinchPath, runPinch } from "./scrcpy_pinch.ts";

export type { MirrorStatus } from "./mirror.ts";

/** Where the yadb helper must be on the device (push it there with `adb push`). */
export const YADB_PATH = "/data/local/tmp/yadb";
/** Default hold of `LongPress` on MobileA, ms (spec 8). */
export const DEFAULT_LONG_PRESS_MS = 2000;
/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;
/** Default duration of `PullGesture`, ms. */
export const DEFAULT_PULL_MS = 500;
/** Default of `minScreenshotBufferSize`, bytes (spec 8). */
export const DEFAULT_MIN_SCREENSHOT_BUFFER_SIZE = 1024;
/** Default time limit of one shell command, ms. */
export const DEFAULT_SHELL_TIMEOUT_MS = 20_000;

const KEYCODE_BACK = 4;
const KEYCODE_HOME = 3;
const KEYCODE_APP_SWITCH = 187;
const KEYCODE_ESCAPE = 111;
const KEYCODE_DEL = 67;
const KEYCODE_MOVE_END = 123;
const DRAG_MS = 1500;
// Where a pull starts: this fraction of the screen height from the top (pull down) or bottom
// (pull up) edge; its default travel: this fraction of the screen height.
const PULL_EDGE_FRACTION = 0.1;
const PULL_DEFAULT_FRACTION = 0.5;
// Deletes sent to empty a field when the yadb helper is not on the device.
const CLEAR_DELETES = 120;

/**
 * Mirror stream settings (spec 4.8): screenshots from the scrcpy server's H.264 video, decoded
 * by ffmpeg. Needs the scrcpy server jar on the device (`scrcpyServerPath`) and ffmpeg here.
 */
export interface MirrorConfig {
  /** Enable mirror-stream screenshots. Default `false`. */
  enabled?: boolean;
  /**
   * Max screenshot width or height in pixels (an integer >= 0; the server's video takes the
   * multiple of 8 below it); also applied to fallback screenshots while the mirror is
   * unavailable. Default 0: no scaling.
   */
  maxSize?: number;
  /** H.264 bitrate, bits/s (> 0). Default 100000000. */
  videoBitRate?: number;
  /** Idle time (no screenshot, no frame consumer) before the stream disconnects, ms; 0 never. Default 30000. */
  idleTimeoutMs?: number;
  /** How long a screenshot waits for a fresh key frame after an in-band video reset, ms. Default 800. */
  videoResetFrameTimeoutMs?: number;
  /** The ffmpeg executable that decodes the video. Default `ffmpeg` on `PATH`. */
  ffmpegPath?: string;
}

/** Options of {@link MobileADevice} (spec 4.8), after the device id. */
export interface MobileADeviceOptions extends BridgeOptions {
  /** Hide the on-screen keyboard after `Input`. Default `true`. */
  autoDismissKeyboard?: boolean;
  /**
   * Key order used to hide the keyboard: `'esc-first'` (default) presses ESCAPE, then BACK if the
   * keyboard is still up; `'back-first'` the other way. Keys are pressed only while it is up.
   */
  keyboardDismissStrategy?: "esc-first" | "back-first";
  /**
   * Delay between typed code points, ms (finite, >= 0). With `'legacy'` a positive value makes
   * the native `input text` path type one code point at a time; the helper path ignores it.
   */
  keyboardTypeDelay?: number;
  /**
   * `'legacy'` (default): one call per text (native or helper); `'sequential'`: one call per code
   * point on both paths; `'bulk'`: one call, needs `keyboardTypeDelay` 0 or unset.
   */
  inputStrategy?: InputStrategy;
  /**
   * `'helper-for-non-ascii'` (default): printable ASCII without `%` format specifiers goes
   * through `input text`, anything else (accents, Chinese, `%s`) through the yadb helper at
   * {@link YADB_PATH}; `'always-helper'`: the helper for all text. `'always-yadb'` and
   * `'yadb-for-non-ascii'` are accepted as the same.
   */
  imeStrategy?: "always-helper" | "helper-for-non-ascii" | "always-yadb" | "yadb-for-non-ascii";
  /**
   * `'auto'` (default): `exec:screencap -p`, then `screencap` to a file read back, then the yadb
   * helper; `'always-helper'`: the helper only (default display only). Also set by
   * `SDK_MOBILEA_SCREENSHOT_STRATEGY=always-helper`.
   */
  screenshotStrategy?: "auto" | "always-helper";
  /** Display to target: passed as `-d <id>` to `input` and `screencap`. Default: none. */
  displayId?: number;
  /**
   * `false` removes `RunBridgeShell` from the action space and makes
   * {@link MobileADevice.runBridgeShell} throw. Default `true`.
   */
  exposeRunBridgeShellAction?: boolean;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /** Deprecated and removed: no effect. Use the agent's `screenshotShrinkFactor`. */
  screenshotResizeScale?: number;
  /**
   * Screenshots smaller than this many bytes count as failed captures. Default 1024; `0` skips
   * the size check (empty buffers and non-PNG data are still rejected).
   */
  minScreenshotBufferSize?: number;
  /** Query the screen size and density before every `size()`. Default `false` (once). */
  alwaysRefreshScreenInfo?: boolean;
  /** The mirror stream (see {@link MirrorConfig}). Default: disabled. */
  mirrorConfig?: MirrorConfig;
  /**
   * Where the scrcpy server jar is on the device, for the mirror stream and `Pinch` (push it
   * once: `adb push scrcpy-server.jar /data/local/tmp/scrcpy-server.jar`). Default
   * `SDK_MOBILEA_SCRCPY_SERVER_PATH`, else {@link DEFAULT_SCRCPY_SERVER_PATH}.
   */
  scrcpyServerPath?: string;
  /**
   * The jar's exact release (the server refuses another client version). Default
   * `SDK_MOBILEA_SCRCPY_SERVER_VERSION`, else {@link DEFAULT_SCRCPY_SERVER_VERSION}.
   */
  scrcpyServerVersion?: string;
}

/** What a shell command printed and its exit code. */
export interface ShellResult {
  /** Standard output. */
  stdout: string;
  /** Standard error (empty on devices without the shell protocol, where it is mixed in stdout). */
  stderr: string;
  /** Exit code (0 on devices without the shell protocol). */
  exitCode: number;
}

/** Options of {@link MobileADevice.runBridgeShell}. */
export interface RunBridgeShellOptions {
  /** Time limit, ms (> 0). Default 20000. */
  timeout?: number;
}

interface ScreenInfo {
  physicalWidth: number;
  physicalHeight: number;
  densityDpi: number;
}

/**
 * An Android device reached through the adb server.
 *
 * Nothing connects in the constructor: the first screenshot, size or action connects (starting
 * a local adb server when none runs) and fails there when the device is not connected.
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
  readonly #bridge: Bridge;
  readonly #autoDismissKeyboard: boolean;
  readonly #dismissStrategy: "esc-first" | "back-first";
  readonly #typeDelay: number | undefined;
  readonly #inputStrategy: InputStrategy;
  readonly #alwaysHelper: boolean;
  readonly #screenshotHelper: boolean;
  readonly #displayId: number | undefined;
  readonly #shellEnabled: boolean;
  readonly #minScreenshot: number;
  readonly #alwaysRefresh: boolean;
  readonly #mirror: Mirror;
  readonly #serverPath: string;
  readonly #serverVersion: string;
  readonly #actions: readonly DeviceAction[];
  readonly #actionsWithPinch: readonly DeviceAction[];
  #scrcpyPresent: boolean | undefined;
  #control: Promise<ScrcpySession> | undefined;
  /**
   * The mirror stream as the observer's frame source (spec 4.8 "Observation"): present only with
   * `mirrorConfig.enabled`. While the mirror is unavailable, frames are screenshots taken at
   * `minIntervalMs` (at least 500 ms) instead.
   */
  readonly startFrameStream?: (options: FrameStreamOptions) => Promise<FrameStream>;
  #adb: Promise<Adb> | undefined;
  #screen: ScreenInfo | undefined;
  #helperPresent: boolean | undefined;
  #destroyed = false;
  #resolveApp: (target: string) => string = (target) => target;

  /**
   * Creates the device; connects lazily.
   *
   * @param deviceId the adb serial, as `adb devices` or {@link getConnectedDevices} lists it.
   * @param options see {@link MobileADeviceOptions}.
   * @throws {TypeError} for an empty `deviceId`, a non-boolean flag, an unknown
   * `keyboardDismissStrategy`, `imeStrategy` or `screenshotStrategy`, or a malformed custom action.
   * @throws {RangeError} for a negative `keyboardTypeDelay` or `minScreenshotBufferSize`, an
   * unknown `inputStrategy`, `'bulk'` with a positive delay, a `displayId` that is not a
   * non-negative integer, an invalid `remoteBridgePort`, or `screenshotStrategy:
   * 'always-helper'` with a non-zero `displayId`.
   */
  constructor(deviceId: string, options: MobileADeviceOptions = {}) {
    if (typeof deviceId !== "string" || deviceId.trim() === "") {
      throw new TypeError(
        `Cannot create MobileADevice as 'deviceId' must be a non-empty string: current value is ${
          JSON.stringify(deviceId)
        }`,
      );
    }
    this.deviceId = deviceId;
    this.#bridge = new Bridge(options);
    checkBooleanOptions("MobileADevice", options, [
      "autoDismissKeyboard",
      "exposeRunBridgeShellAction",
      "alwaysRefreshScreenInfo",
    ]);
    this.#autoDismissKeyboard = options.autoDismissKeyboard ?? true;
    this.#shellEnabled = options.exposeRunBridgeShellAction ?? true;
    this.#alwaysRefresh = options.alwaysRefreshScreenInfo ?? false;
    this.#dismissStrategy = oneOf(
      "keyboardDismissStrategy",
      options.keyboardDismissStrategy,
      ["esc-first", "back-first"],
      "esc-first",
    );
    const ime = oneOf("imeStrategy", options.imeStrategy, [
      "helper-for-non-ascii",
      "always-helper",
      "always-yadb",
      "yadb-for-non-ascii",
    ], "helper-for-non-ascii");
    this.#alwaysHelper = ime === "always-helper" || ime === "always-yadb";
    const envStrategy = getEnv("SDK_MOBILEA_SCREENSHOT_STRATEGY");
    const shot = oneOf(
      "screenshotStrategy",
      options.screenshotStrategy ??
        (envStrategy === "always-helper" ? "always-helper" : undefined),
      ["auto", "always-helper"],
      "auto",
    );
    const display = options.displayId;
    if (display !== undefined && !(Number.isInteger(display) && display >= 0)) {
      throw new RangeError(
        `Cannot create MobileADevice as 'displayId' must be an integer >= 0: current value is ${
          JSON.stringify(display)
        }`,
      );
    }
    if (shot === "always-helper" && (display ?? 0) !== 0) {
      throw new RangeError(
        `Cannot create MobileADevice as screenshotStrategy 'always-helper' captures only the ` +
          `default display: current displayId is ${display}`,
      );
    }
    this.#displayId = display;
    this.#screenshotHelper = shot === "always-helper";
    const min = options.minScreenshotBufferSize ?? DEFAULT_MIN_SCREENSHOT_BUFFER_SIZE;
    if (!(Number.isInteger(min) && min >= 0)) {
      throw new RangeError(
        `Cannot create MobileADevice as 'minScreenshotBufferSize' must be an integer number of ` +
          `bytes >= 0: current value is ${JSON.stringify(options.minScreenshotBufferSize)}`,
      );
    }
    this.#minScreenshot = min;
    const delay = options.keyboardTypeDelay;
    if (
      delay !== undefined && !(typeof delay === "number" && Number.isFinite(delay) && delay >= 0)
    ) {
      throw new RangeError(
        `Cannot create MobileADevice as 'keyboardTypeDelay' must be a finite number of ms >= 0: ` +
          `current value is ${JSON.stringify(delay)}`,
      );
    }
    checkInputOptions(options);
    this.#typeDelay = delay;
    this.#inputStrategy = options.inputStrategy ?? "legacy";
    this.#serverPath = checkText(
      "scrcpyServerPath",
      options.scrcpyServerPath ?? getEnv("SDK_MOBILEA_SCRCPY_SERVER_PATH"),
    ) ?? DEFAULT_SCRCPY_SERVER_PATH;
    this.#serverVersion = checkText(
      "scrcpyServerVersion",
      options.scrcpyServerVersion ?? getEnv("SDK_MOBILEA_SCRCPY_SERVER_VERSION"),
    ) ?? DEFAULT_SCRCPY_SERVER_VERSION;
    this.#mirror = new Mirror({
      ...checkMirrorConfig(options.mirrorConfig),
      serverPath: this.#serverPath,
      serverVersion: this.#serverVersion,
    }, {
      adb: () => this.#connect(),
      serverPresent: () => this.pinchAvailable(),
      screen: async () => {
        const info = await this.#screenInfo(false);
        return { width: info.physicalWidth, height: info.physicalHeight };
      },
    });
    if (this.#mirror.settings.enabled) {
      this.startFrameStream = (streamOptions) => this.#startFrameStream(streamOptions);
    }
    const builtIn = this.#buildActions();
    this.#actions = logDeviceActions(
      withCustomActions("MobileADevice", builtIn, options.customActions),
    );
    this.#actionsWithPinch = logDeviceActions(
      withCustomActions("MobileADevice", [...builtIn, this.#pinchAction()], options.customActions),
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
   * @throws {Error} naming each method's failure when all fail.
   */
  async screenshotBase64(): Promise<string> {
    const frame = await this.#mirror.frame();
    if (frame) return `data:image/jpeg;base64,${encodeBase64(frame.jpeg)}`;
    const png = await this.#capturePng();
    const { enabled, maxSize } = this.#mirror.settings;
    const scaled = enabled && maxSize > 0 ? await scalePngToMaxSize(png, maxSize) : png;
    return `data:image/png;base64,${encodeBase64(scaled)}`;
  }

  async #capturePng(): Promise<Uint8Array> {
    const tmp = "/data/local/tmp/sdk_screencap.png";
    const d = this.#displayArgs();
    const attempts: [string, () => Promise<Uint8Array>][] = this.#screenshotHelper ? [] : [
      ["exec:screencap -p", () => this.#exec(`screencap -p${d}`)],
      ["screencap to a file", async () => {
        await this.#shellOk(`screencap -p${d} ${tmp}`);
        return await this.#exec(`cat ${tmp}`);
      }],
    ];
    attempts.push(["the yadb helper", async () => {
      await this.#requireHelper("take a screenshot with it");
      await this.#shellOk(`${yadbCommand("-screenshot")} ${tmp}`);
      return await this.#exec(`cat ${tmp}`);
    }]);
    const failures: string[] = [];
    for (const [name, capture] of attempts) {
      try {
        const png = await capture();
        this.#checkScreenshot(png);
        return png;
      } catch (error) {
        if (this.#destroyed) throw error;
        failures.push(`${name}: ${(error as Error).message}`);
      }
    }
    throw new Error(
      `Cannot take a screenshot of Android device ${JSON.stringify(this.deviceId)}: ${
        failures.join("; ")
      }`,
    );
  }

  /**
   * Logical size (physical / dpr) and `dpr` = densityDpi / 160, from `wm size` and `wm density`
   * (their override values when set). Asked once, or before every call with
   * `alwaysRefreshScreenInfo`.
   *
   * @throws {Error} after `destroy()`, or when the device cannot be reached.
   */
  async size(): Promise<Size> {
    if (this.#destroyed) await this.#connect(); // throws: no more bridge commands
    const info = await this.#screenInfo(this.#alwaysRefresh);
    const dpr = info.densityDpi / 160;
    return { width: info.physicalWidth / dpr, height: info.physicalHeight / dpr, dpr };
  }

  /**
   * The MobileA actions: `Tap`, `DoubleClick`, `Input`, `ClearInput`, `KeyboardPress`, `Scroll`,
   * `Swipe`, `DragAndDrop`, `LongPress`, `PullGesture`, `Launch`, `Terminate`, `RunBridgeShell` (unless
   * `exposeRunBridgeShellAction: false`), `MobileABackButton`, `MobileAHomeButton`,
   * `MobileARecentAppsButton`, `Pinch` (once the connection found the scrcpy server jar at
   * `scrcpyServerPath`: see {@link MobileADevice.pinchAvailable}), then the custom actions. Each
   * `call` throws a `TypeError` naming the action and parameter for a malformed parameter.
   */
  actionSpace(): DeviceAction[] {
    return [...(this.#scrcpyPresent ? this.#actionsWithPinch : this.#actions)];
  }

  /**
   * Whether `Pinch` can run: the scrcpy server jar is at `scrcpyServerPath` on the device (its
   * control channel injects two-finger touches; adb's `input` moves one pointer only). Asked
   * once per connection.
   *
   * @throws {Error} when the device cannot be reached.
   */
  async pinchAvailable(): Promise<boolean> {
    const adb = await this.#connect();
    // Asked again while absent: the jar may have been pushed since.
    if (!this.#scrcpyPresent) this.#scrcpyPresent = await this.#scrcpyJarPresent(adb);
    return this.#scrcpyPresent;
  }

  /** Where the scrcpy server jar is looked for, and its release (for messages). */
  get scrcpyServer(): { path: string; version: string } {
    return { path: this.#serverPath, version: this.#serverVersion };
  }

  /** `android <deviceId>`, for the report. */
  describe(): Promise<string> {
    return Promise.resolve(`android ${this.deviceId}`);
  }

  /**
   * Makes the planner's `Launch` and `Terminate` actions resolve app names with `resolve` (the
   * agent's `appNameMapping`; `MobileAAgent` calls this). Without it, targets are used as given.
   */
  useAppNameMapping(resolve: (target: string) => string): void {
    if (typeof resolve !== "function") {
      throw new TypeError("useAppNameMapping needs a function from app name to package name");
    }
    this.#resolveApp = resolve;
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
    if (this.#destroyed) await this.#connect(); // throws: destroyed
    await this.#mirror.retry();
  }

  /**
   * Runs `command` in the device's shell (without the `adb shell` prefix).
   *
   * @returns what it printed and its exit code.
   * @throws {Error} when `exposeRunBridgeShellAction` is `false`, when the device is gone, or on
   * the time limit.
   * @throws {RangeError} for a `timeout` that is not a finite number > 0.
   */
  async runBridgeShell(command: string, options: RunBridgeShellOptions = {}): Promise<ShellResult> {
    if (!this.#shellEnabled) {
      throw new Error(
        "runBridgeShell is disabled: this device was created with exposeRunBridgeShellAction: false",
      );
    }
    if (typeof command !== "string" || command.trim() === "") {
      throw new TypeError(
        `runBridgeShell needs a non-empty command: current value is ${JSON.stringify(command)}`,
      );
    }
    const timeout = options.timeout ?? DEFAULT_SHELL_TIMEOUT_MS;
    if (!(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
      throw new RangeError(
        `runBridgeShell: 'timeout' must be a finite number of ms > 0: current value is ${
          JSON.stringify(options.timeout)
        }`,
      );
    }
    return await this.#shell(command, timeout);
  }

  /**
   * Closes the connection to the adb server; the device stays connected to it. Idempotent;
   * afterwards every command throws.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#mirror.close();
    const control = this.#control;
    this.#control = undefined;
    await control?.then((session) => session.close()).catch(() => {});
    const adb = this.#adb;
    this.#adb = undefined;
    if (adb) await adb.then((a) => a.close()).catch(() => {});
  }

  // ---- adb ----------------------------------------------------------------------------------

  #connect(): Promise<Adb> {
    if (this.#destroyed) {
      return Promise.reject(
        new Error(
          `MobileADevice ${JSON.stringify(this.deviceId)} was destroyed; create a new device`,
        ),
      );
    }
    this.#adb ??= this.#bridge.open(this.deviceId).then(async (adb) => {
      this.#scrcpyPresent = await this.#scrcpyJarPresent(adb);
      return adb;
    }).catch((error) => {
      this.#adb = undefined;
      throw error;
    });
    return this.#adb;
  }

  // One `ls` of the jar; an unreachable answer counts as absent (the next connection asks again).
  async #scrcpyJarPresent(adb: Adb): Promise<boolean> {
    try {
      const command = `ls ${shellQuote(this.#serverPath)}`;
      const shell = adb.subprocess.shellProtocol;
      if (shell?.isSupported) return (await shell.spawnWaitText(command)).exitCode === 0;
      const out = await adb.subprocess.noneProtocol.spawnWaitText(`${command} && echo present`);
      return out.includes("present");
    } catch {
      return false;
    }
  }

  // One command with the shell protocol (stdout, stderr, exit code apart) where the device has it.
  async #shell(command: string, timeoutMs = DEFAULT_SHELL_TIMEOUT_MS): Promise<ShellResult> {
    const adb = await this.#connect();
    const run = async (): Promise<ShellResult> => {
      const shell = adb.subprocess.shellProtocol;
      if (shell?.isSupported) return await shell.spawnWaitText(command);
      const stdout = await adb.subprocess.noneProtocol.spawnWaitText(command);
      return { stdout, stderr: "", exitCode: 0 };
    };
    return await this.#guard(command, run(), timeoutMs);
  }

  // A command whose non-zero exit code is an error.
  async #shellOk(command: string): Promise<string> {
    const result = await this.#shell(command);
    if (result.exitCode !== 0) {
      throw new Error(
        `\`${command}\` exited with ${result.exitCode}: ${
          (result.stderr || result.stdout).trim().slice(0, 300)
        }`,
      );
    }
    return result.stdout;
  }

  // Raw bytes of `exec:command` (no terminal conversion).
  async #exec(command: string): Promise<Uint8Array> {
    const adb = await this.#connect();
    return await this.#guard(command, adb.subprocess.noneProtocol.spawnWait(command));
  }

  // Names the device and command in failures, and drops a connection that broke (a device that
  // went away) so that the next command reconnects or says the device is not connected.
  async #guard<T>(
    command: string,
    work: Promise<T>,
    timeoutMs = DEFAULT_SHELL_TIMEOUT_MS,
  ): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([work, late]);
    } catch (error) {
      const adb = this.#adb;
      this.#adb = undefined;
      adb?.then((a) => a.close()).catch(() => {});
      work.catch(() => {});
      throw new Error(
        `Android device ${JSON.stringify(this.deviceId)}: \`${command}\` failed: ${
          (error as Error)?.message ?? String(error)
        } (is the device still connected? check \`adb devices\`)`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  #displayArgs(): string {
    return this.#displayId === undefined ? "" : ` -d ${this.#displayId}`;
  }

  #input(rest: string): string {
    return `input${this.#displayArgs()} ${rest}`;
  }

  async #screenInfo(refresh: boolean): Promise<ScreenInfo> {
    if (this.#screen && !refresh) return this.#screen;
    const sizeText = await this.#shellOk("wm size");
    const densityText = await this.#shellOk("wm density");
    const size = /Override size:\s*(\d+)x(\d+)/.exec(sizeText) ??
      /Physical size:\s*(\d+)x(\d+)/.exec(sizeText);
    const density = /Override density:\s*(\d+)/.exec(densityText) ??
      /Physical density:\s*(\d+)/.exec(densityText);
    if (!size || !density) {
      throw new Error(
        `Cannot read the screen of Android device ${JSON.stringify(this.deviceId)}: \`wm size\` ` +
          `printed ${JSON.stringify(sizeText.trim())}, \`wm density\` ${
            JSON.stringify(densityText.trim())
          }`,
      );
    }
    this.#screen = {
      physicalWidth: Number(size[1]),
      physicalHeight: Number(size[2]),
      densityDpi: Number(density[1]),
    };
    return this.#screen;
  }

  #checkScreenshot(png: Uint8Array): void {
    if (png.length === 0) throw new Error("the capture is empty");
    if (png.length < this.#minScreenshot) {
      throw new Error(
        `the capture has ${png.length} bytes, fewer than minScreenshotBufferSize (${this.#minScreenshot})`,
      );
    }
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    if (png.length < 8 || signature.some((b, i) => png[i] !== b)) {
      throw new Error("the capture is not a PNG image");
    }
  }

  // ---- geometry -------------------------------------------------------------------------------

  // A logical point as physical pixels on the screen.
  async #physical(point: Point): Promise<[number, number]> {
    const info = await this.#screenInfo(false);
    const dpr = info.densityDpi / 160;
    const clamp = (v: number, max: number) => Math.min(Math.max(Math.round(v), 0), max - 1);
    return [
      clamp(point[0] * dpr, info.physicalWidth),
      clamp(point[1] * dpr, info.physicalHeight),
    ];
  }

  async #tapAt(point: Point): Promise<void> {
    const [x, y] = await this.#physical(point);
    await this.#shellOk(this.#input(`tap ${x} ${y}`));
  }

  async #swipe(from: Point, to: Point, ms: number, verb = "swipe"): Promise<void> {
    const [x1, y1] = await this.#physical(from);
    const [x2, y2] = await this.#physical(to);
    await this.#shellOk(this.#input(`${verb} ${x1} ${y1} ${x2} ${y2} ${Math.round(ms)}`));
  }

  async #keyevent(...codes: number[]): Promise<void> {
    await this.#shellOk(this.#input(`keyevent ${codes.join(" ")}`));
  }

  // ---- text ---------------------------------------------------------------------------------

  async #helperAvailable(): Promise<boolean> {
    if (this.#helperPresent === true) return true;
    const result = await this.#shell(`ls ${YADB_PATH}`);
    this.#helperPresent = result.exitCode === 0 && result.stdout.includes("yadb");
    return this.#helperPresent;
  }

  async #requireHelper(purpose: string): Promise<void> {
    if (await this.#helperAvailable()) return;
    throw new Error(
      `Android device ${JSON.stringify(this.deviceId)} has no yadb helper at ${YADB_PATH}, ` +
        `needed to ${purpose}. Push it once with \`adb -s ${this.deviceId} push yadb ` +
        `/data/local/tmp/\` (yadb: https://github.com/ysbing/YADB); @sdk/mobilea does not ship it.`,
    );
  }

  async #typeText(text: string, overrides: InputActionOptions | undefined, signal?: AbortSignal) {
    const { delay, strategy } = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    if (text === "") return;
    const helper = this.#alwaysHelper || !isNativeText(text);
    if (helper) await this.#requireHelper("type this text (non-ASCII or a % format specifier)");
    const send = (part: string) =>
      helper
        ? this.#shellOk(`${yadbCommand("-keyboard")} ${shellQuote(part)}`)
        : this.#shellOk(this.#input(`text ${shellQuote(escapeInputText(part))}`));
    // 'sequential' splits both paths; 'legacy' with a delay splits the native path only.
    const split = strategy === "sequential" || (strategy === "legacy" && delay > 0 && !helper);
    if (!split) {
      await send(text);
      return;
    }
    let first = true;
    for (const codePoint of text) {
      if (!first && delay > 0) await sleep(delay, signal);
      first = false;
      signal?.throwIfAborted();
      await send(codePoint);
    }
  }

  async #clearField(): Promise<void> {
    if (await this.#helperAvailable()) {
      await this.#shellOk(`${yadbCommand("-keyboard")} ~CLEAR~`);
      return;
    }
    await this.#keyevent(KEYCODE_MOVE_END, ...Array(CLEAR_DELETES).fill(KEYCODE_DEL));
  }

  async #keyboardShown(): Promise<boolean> {
    const result = await this.#shell("dumpsys input_method");
    return /mInputShown=true/.test(result.stdout);
  }

  // Hides the keyboard with the strategy's keys, each only while the keyboard is still up (BACK
  // on a screen without a keyboard would navigate).
  async #dismissKeyboard(): Promise<void> {
    const keys = this.#dismissStrategy === "esc-first"
      ? [KEYCODE_ESCAPE, KEYCODE_BACK]
      : [KEYCODE_BACK, KEYCODE_ESCAPE];
    for (const key of keys) {
      if (!(await this.#keyboardShown())) return;
      await this.#keyevent(key);
    }
  }

  // ---- actions ------------------------------------------------------------------------------

  #buildActions(): DeviceAction[] {
    const unit = "dp (logical pixels: screenshot pixels / (screen dpi / 160))";
    const plain = deviceAction;
    const at = (action: string, param: ActionParams, name = "locate"): LocatedElement =>
      readLocateParam(action, param, true, name)!;
    const actions: DeviceAction[] = [
      tapAction(async (param) => await this.#tapAt(at("Tap", param).center)),
      doubleClickAction(async (param) => {
        const [x, y] = await this.#physical(at("DoubleClick", param).center);
        const tap = this.#input(`tap ${x} ${y}`);
        await this.#shellOk(`${tap} && ${tap}`);
      }, {
        description: "Double-tap an element (two quick taps).",
        params: { locate: "the element to double-tap" },
      }),
      inputAction(async (param, context) => {
        const target = readLocateParam("Input", param, false);
        const mode = readEnumParam("Input", param, "mode", [...INPUT_MODES, "append"], "replace");
        const value = readStringParam("Input", param, "value", mode !== "clear") ?? "";
        if (target) await this.#tapAt(target.center);
        if (mode === "typeOnly" || mode === "append") {
          await this.#keyevent(KEYCODE_MOVE_END);
        } else {
          await this.#clearField();
        }
        if (mode !== "clear") await this.#typeText(value, context.inputOptions, context.signal);
        if (this.#autoDismissKeyboard) await this.#dismissKeyboard();
      }),
      clearInputAction(async (param) => {
        await this.#tapAt(at("ClearInput", param).center);
        await this.#clearField();
        if (this.#autoDismissKeyboard) await this.#dismissKeyboard();
      }),
      keyboardPressAction(async (param) => {
        const target = readLocateParam("KeyboardPress", param, false);
        const keyName = readStringParam("KeyboardPress", param, "keyName", true)!;
        const code = androidKeyCode(keyName);
        if (target) await this.#tapAt(target.center);
        await this.#keyevent(code);
      }, {
        description: "Press a key on the phone, such as Enter, Tab, Escape, Backspace or a letter.",
        params: {
          locate: "the element to tap before pressing; the focused element when left out",
          keyName: "one key name: Enter, Tab, Escape, Backspace, Delete, ArrowDown, a, 7",
        },
      }),
      scrollAction((param) => this.#scroll(param), {
        unit,
        params: {
          locate: "a point inside the area to scroll; the screen center when left out",
        },
      }),
      swipeAction(async (param) => {
        const { from, to } = swipeEnds(param, await this.size());
        const ms = readPositiveNumberParam("Swipe", param, "duration") ?? DEFAULT_SWIPE_MS;
        await this.#swipe(from, to, ms);
      }, { unit, defaultDurationMs: DEFAULT_SWIPE_MS }),
      dragAndDropAction(async (param) => {
        await this.#swipe(
          at("DragAndDrop", param, "from").center,
          at("DragAndDrop", param, "to").center,
          DRAG_MS,
          "draganddrop",
        );
      }, {
        description:
          "Drag an element and drop it onto another place: press and hold 'from', move to 'to', lift.",
      }),
      longPressAction(async (param) => {
        const point = at("LongPress", param).center;
        const ms = readPositiveNumberParam("LongPress", param, "duration") ??
          DEFAULT_LONG_PRESS_MS;
        await this.#swipe(point, point, ms);
      }, {
        defaultDurationMs: DEFAULT_LONG_PRESS_MS,
        description: "Press and hold an element with a finger (a long press).",
      }),
      plain(
        "PullGesture",
        "Pull the screen with one finger: 'down' from near the top edge (refresh a list, open " +
          "the notification shade), 'up' from near the bottom edge (load more, open a bottom sheet).",
        [
          {
            name: "direction",
            type: "enum",
            values: ["down", "up"],
            required: true,
            description:
              "down: from near the top edge downwards; up: from near the bottom edge upwards",
          },
          {
            name: "distance",
            type: "number",
            required: false,
            description: `how far the finger moves, ${unit}; default half the screen height`,
          },
          {
            name: "duration",
            type: "number",
            required: false,
            description: `how long the pull takes, ms; default ${DEFAULT_PULL_MS}`,
          },
        ],
        async (param) => {
          if (param.direction === undefined || param.direction === null) {
            throw new TypeError("Cannot run PullGesture: give 'direction' (down or up)");
          }
          const direction = readEnumParam(
            "PullGesture",
            param,
            "direction",
            ["down", "up"],
            "down",
          );
          const distance = readPositiveNumberParam("PullGesture", param, "distance");
          const ms = readPositiveNumberParam("PullGesture", param, "duration") ?? DEFAULT_PULL_MS;
          await this.#pull(direction, distance, ms);
        },
      ),
      plain("Launch", "Open an app or a web page.", [{
        name: "uri",
        type: "string",
        required: true,
        description:
          "an app name (Settings), a package name (com.android.settings), package/.Activity, or a web URL (https://...)",
      }], async (param) => {
        await this.launch(this.#resolveApp(readStringParam("Launch", param, "uri", true)!));
      }),
      plain("Terminate", "Force-stop an app.", [{
        name: "uri",
        type: "string",
        required: true,
        description:
          "the app's name or package name (or package/.Activity: only the package is used)",
      }], async (param) => {
        await this.terminate(
          this.#resolveApp(readStringParam("Terminate", param, "uri", true)!),
        );
      }),
    ];
    if (this.#shellEnabled) {
      actions.push(
        plain("RunBridgeShell", "Run a command in the device's adb shell.", [{
          name: "command",
          type: "string",
          required: true,
          description: "the shell command, without the `adb shell` prefix",
        }], async (param) => {
          const command = readStringParam("RunBridgeShell", param, "command", true)!;
          const result = await this.runBridgeShell(command);
          if (result.exitCode !== 0) {
            throw new Error(
              `RunBridgeShell: \`${command}\` exited with ${result.exitCode}: ${
                (result.stderr || result.stdout).trim().slice(0, 300)
              }`,
            );
          }
        }),
      );
    }
    actions.push(
      plain("MobileABackButton", "Press the system Back button.", [], () => this.back()),
      plain(
        "MobileAHomeButton",
        "Press the system Home button (the launcher).",
        [],
        () => this.home(),
      ),
      plain(
        "MobileARecentAppsButton",
        "Press the system Recent apps button (the app switcher).",
        [],
        () => this.recentApps(),
      ),
    );
    return actions;
  }

  // Pinch through scrcpy's control channel (two pointers); only in the action space once the
  // connection found the server jar.
  #pinchAction(): DeviceAction {
    return pinchAction(async (param, context) => {
      context?.signal?.throwIfAborted();
      if (param.direction === undefined || param.direction === null) {
        throw new TypeError("Cannot run Pinch: 'direction' ('in' or 'out') is required");
      }
      const direction = readEnumParam("Pinch", param, "direction", PINCH_DIRECTIONS, "out");
      const logical = await this.size();
      const center = readLocateParam("Pinch", param, false)?.center ??
        [logical.width / 2, logical.height / 2];
      const distance = readPositiveNumberParam("Pinch", param, "distance") ??
        Math.min(logical.width, logical.height) / 4;
      const ms = readPositiveNumberParam("Pinch", param, "duration") ?? DEFAULT_PINCH_MS;
      const info = await this.#screenInfo(false);
      const dpr = info.densityDpi / 160;
      const screen = { width: info.physicalWidth, height: info.physicalHeight };
      const path = pinchPath(
        [center[0] * dpr, center[1] * dpr],
        direction,
        distance * dpr,
        { ...screen, dpr },
      );
      await runPinch(await this.#controlSession(), path, ms, screen, context?.signal);
    }, {
      unit: "dp (logical pixels: screenshot pixels / (screen dpi / 160))",
      defaultDurationMs: DEFAULT_PINCH_MS,
    });
  }

  // The control-only scrcpy session (no video), started on first use and kept until destroy().
  #controlSession(): Promise<ScrcpySession> {
    this.#control ??= (async () => {
      if (!(await this.pinchAvailable())) throw new Error(pinchUnavailable(this.scrcpyServer));
      const info = await this.#screenInfo(false);
      const session = await startScrcpySession(await this.#connect(), {
        serverPath: this.#serverPath,
        serverVersion: this.#serverVersion,
        video: false,
      }, { width: info.physicalWidth, height: info.physicalHeight });
      // A server that ends (the device went away) is started again on the next pinch.
      session.exited.then(() => this.#control = undefined);
      return session;
    })().catch((error) => {
      this.#control = undefined;
      throw new Error(
        `Cannot pinch on Android device ${JSON.stringify(this.deviceId)}: ${
          (error as Error).message
        }`,
        { cause: error },
      );
    });
    return this.#control;
  }

  async #startFrameStream(options: FrameStreamOptions): Promise<FrameStream> {
    const minInterval = options.minIntervalMs ?? 0;
    let stopped = false;
    let last = 0;
    const unsubscribe = this.#mirror.subscribe((frame) => {
      if (stopped || frame.timestamp - last < minInterval) return;
      last = frame.timestamp;
      options.onFrame({
        data: encodeBase64(frame.jpeg),
        format: "jpeg",
        timestamp: frame.timestamp,
      });
    });
    // The mirror's current frame first (connecting it); while it is unavailable, screenshots.
    const pollMs = Math.max(minInterval, 500);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (stopped) return;
      if (!this.#mirror.status().connected) {
        const shot = await this.screenshotBase64().catch(() => undefined);
        const match = shot && /^data:image\/(png|jpeg);base64,(.*)$/.exec(shot);
        if (match && !stopped) {
          last = Date.now();
          options.onFrame({ data: match[2], format: match[1] as "png" | "jpeg", timestamp: last });
        }
      }
      if (!stopped) timer = setTimeout(poll, pollMs);
    };
    const first = await this.#mirror.frame();
    if (first && !stopped) {
      last = first.timestamp;
      options.onFrame({
        data: encodeBase64(first.jpeg),
        format: "jpeg",
        timestamp: first.timestamp,
      });
    }
    timer = setTimeout(poll, pollMs);
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
        unsubscribe();
        return Promise.resolve();
      },
    };
  }

  async #scroll(param: ActionParams): Promise<void> {
    for (const stroke of scrollStrokes(param, await this.size())) {
      await this.#swipe(stroke.from, stroke.to, stroke.ms);
    }
  }

  // A vertical swipe from near the top edge down, or from near the bottom edge up; the travel
  // is cut so that the finger stays on the screen.
  async #pull(direction: "down" | "up", distance: number | undefined, ms: number): Promise<void> {
    const { width, height } = await this.size();
    const edge = height * PULL_EDGE_FRACTION;
    const travel = Math.min(distance ?? height * PULL_DEFAULT_FRACTION, height - 1 - edge);
    const x = width / 2;
    const from = direction === "down" ? edge : height - 1 - edge;
    const to = direction === "down" ? from + travel : from - travel;
    await this.#swipe([x, from], [x, to], ms);
  }

  // ---- system actions (also the agent's methods) ---------------------------------------------

  /**
   * Opens `uri`: a web URL (`am start -a android.intent.action.VIEW -d`), a `package/.Activity`
   * (`am start -n`), or a package name (its launcher activity, through `monkey`).
   *
   * @throws {Error} with the device's message when the app or activity does not exist.
   */
  async launch(uri: string): Promise<void> {
    const target = uri.trim();
    if (target === "") throw new TypeError("Cannot launch: the target is empty");
    let command: string;
    if (/^[a-z][a-z\d+.-]*:\/\//i.test(target)) {
      command = `am start -a android.intent.action.VIEW -d ${shellQuote(target)}`;
    } else if (target.includes("/")) {
      command = `am start -n ${shellQuote(target)}`;
    } else {
      command = `monkey -p ${shellQuote(target)} -c android.intent.category.LAUNCHER 1`;
    }
    const result = await this.#shell(command);
    const output = `${result.stdout}\n${result.stderr}`;
    if (
      result.exitCode !== 0 || /^Error:|No activities found|monkey aborted/m.test(output)
    ) {
      throw new Error(
        `Cannot launch ${JSON.stringify(target)} on Android device ${
          JSON.stringify(this.deviceId)
        }: ${output.trim().slice(0, 300)}`,
      );
    }
  }

  /** Force-stops the app of `uri` (a package name, or `package/.Activity`). */
  async terminate(uri: string): Promise<void> {
    const pkg = uri.trim().split("/")[0];
    if (pkg === "") throw new TypeError("Cannot terminate: the package name is empty");
    await this.#shellOk(`am force-stop ${shellQuote(pkg)}`);
  }

  /** Presses the system Back button (KEYCODE_BACK). */
  async back(): Promise<void> {
    await this.#keyevent(KEYCODE_BACK);
  }

  /** Presses the system Home button (KEYCODE_HOME). */
  async home(): Promise<void> {
    await this.#keyevent(KEYCODE_HOME);
  }

  /** Presses the system Recent apps button (KEYCODE_APP_SWITCH). */
  async recentApps(): Promise<void> {
    await this.#keyevent(KEYCODE_APP_SWITCH);
  }
}

// ---- helpers (exported for the unit tests) ---------------------------------------------------

/**
 * Whether `input text` can type `text`: printable ASCII without a `%` format specifier (Android's
 * `input text` reads `%s` as a space).
 */
export function isNativeText(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text) && !/%[a-zA-Z]/.test(text);
}

/** Android's `input text` escaping: a space is written `%s`. */
export function escapeInputText(text: string): string {
  return text.replace(/ /g, "%s");
}

function yadbCommand(flag: string): string {
  return `app_process -Djava.class.path=${YADB_PATH} /data/local/tmp com.ysbing.yadb.Main ${flag}`;
}

/**
 * Why `Pinch` cannot run: what to push where (the scrcpy server jar at `path`, release
 * `version`).
 */
export function pinchUnavailable(server: { path: string; version: string }): string {
  return `aiPinch needs the scrcpy server on the device: adb's \`input\` command moves one ` +
    `pointer only, and two-finger touches go through scrcpy's control channel. To fix it, ` +
    `${scrcpyJarHint(server)}; until then Pinch is not in the MobileA action space`;
}

function checkText(name: string, value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(
      `Cannot create MobileADevice as '${name}' must be a non-empty string: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

// The mirror settings with their defaults (spec 8), or the error naming a wrong one.
function checkMirrorConfig(config: MirrorConfig | undefined): {
  enabled: boolean;
  maxSize: number;
  videoBitRate: number;
  idleTimeoutMs: number;
  videoResetFrameTimeoutMs: number;
  ffmpegPath: string;
} {
  if (config !== undefined && (typeof config !== "object" || config === null)) {
    throw new TypeError(
      `Cannot create MobileADevice as 'mirrorConfig' must be an object: current value is ${
        JSON.stringify(config)
      }`,
    );
  }
  const c = config ?? {};
  if (c.enabled !== undefined && typeof c.enabled !== "boolean") {
    throw new TypeError(
      `Cannot create MobileADevice as 'mirrorConfig.enabled' must be a boolean: current value ` +
        `is ${JSON.stringify(c.enabled)}`,
    );
  }
  const number = (
    name: keyof MirrorConfig,
    fallback: number,
    ok: (v: number) => boolean,
    rule: string,
  ): number => {
    const value = c[name];
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !ok(value)) {
      throw new RangeError(
        `Cannot create MobileADevice as 'mirrorConfig.${name}' must be ${rule}: current value ` +
          `is ${JSON.stringify(value)}`,
      );
    }
    return value;
  };
  const isInt = Number.isInteger;
  return {
    enabled: c.enabled === true,
    maxSize: number("maxSize", 0, (v) => isInt(v) && v >= 0, "an integer >= 0 (pixels)"),
    videoBitRate: number(
      "videoBitRate",
      DEFAULT_MIRROR_BIT_RATE,
      (v) => isInt(v) && v > 0,
      "an integer > 0 (bits/s)",
    ),
    idleTimeoutMs: number(
      "idleTimeoutMs",
      DEFAULT_MIRROR_IDLE_TIMEOUT_MS,
      (v) => Number.isFinite(v) && v >= 0,
      "a finite number of ms >= 0",
    ),
    videoResetFrameTimeoutMs: number(
      "videoResetFrameTimeoutMs",
      DEFAULT_MIRROR_RESET_FRAME_TIMEOUT_MS,
      (v) => isInt(v) && v > 0,
      "an integer number of ms > 0",
    ),
    ffmpegPath: checkText("mirrorConfig.ffmpegPath", c.ffmpegPath) ?? "ffmpeg",
  };
}

function oneOf<T extends string>(
  name: string,
  value: unknown,
  values: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
  throw new TypeError(
    `Cannot create MobileADevice as '${name}' must be one of ${
      values.map((v) => `'${v}'`).join(", ")
    }: current value is ${JSON.stringify(value)}`,
  );
}
