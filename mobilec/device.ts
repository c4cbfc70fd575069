/**
 * `MobileCDevice`: a HarmonyOS device as the device seam (`AbstractInterface`), driven through
 * the device tool `hdc` (spec 4.10): screenshots with `snapshot_display` and `hdc file recv`,
 * touches, keys and text with `uitest uiInput`, apps with `aa` and `bm`.
 *
 * Units: screenshots are in the screen's **physical** pixels. Actions take **logical** pixels,
 * HarmonyOS's vp: physical / density, where density is the display's `Density` of `hidumper -s
 * DisplayManagerService` (3 -> a 1260 x 2720 screen is 420 x 906.7 vp); `dpr` is that density.
 *
 * @module
 */

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  AbstractInterface,
  ActionParams,
  DeviceAction,
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
  INPUT_MODES,
  inputAction,
  keyboardPressAction,
  logDeviceActions,
  longPressAction,
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
import { DEFAULT_TOOL_TIMEOUT_MS, findTool, runTool, type ToolOptions } from "./tool.ts";
import { harmonyKeyEvent } from "./keys.ts";
import { resolveLaunchAbility } from "./bundle.ts";

/** Default duration of `Swipe`, ms. */
export const DEFAULT_SWIPE_MS = 300;
/** Where screenshots are written on the device before `hdc file recv` fetches them. */
export const DEVICE_SCREENSHOT_PATH = "/data/local/tmp/sdk_mobilec_screen.jpeg";

// uitest's speed range for swipe, fling and drag, px/s.
const MIN_SPEED = 200;
const MAX_SPEED = 40_000;
const DRAG_MS = 1000;
const KEY_ESCAPE = harmonyKeyEvent("Escape");
const KEY_CTRL = "2072"; // KEYCODE_CTRL_LEFT: a modifier, not a key KeyboardPress takes
const KEY_A = harmonyKeyEvent("a");
const KEY_BACKSPACE = harmonyKeyEvent("Backspace");
const KEY_MOVE_END = harmonyKeyEvent("End");
// KEYCODE_VIRTUAL_MULTITASK: the recent-tasks key of @ohos.multimodalInput.keyCode.
const KEY_MULTITASK = "2210";
// What uitest prints when it refuses its arguments.
const UITEST_ERROR =
  /Invalid parameters|Missing parameter|Too many parameters|Please confirm that the coordinate values are correct/i;

/** Options of {@link MobileCDevice} (spec 4.10), after the device id. */
export interface MobileCDeviceOptions extends ToolOptions {
  /** Hide the on-screen keyboard after `Input` and `ClearInput`. Default `true`. */
  autoDismissKeyboard?: boolean;
  /**
   * Key that hides the keyboard: `'esc-first'` (default) sends Escape; `'back-first'` sends Back
   * (which navigates back when no keyboard is up).
   */
  keyboardDismissStrategy?: "esc-first" | "back-first";
  /**
   * Delay between typed code points, ms (finite, >= 0). A positive value makes `'legacy'` typing
   * send one code point per `uitest uiInput text` call.
   */
  keyboardTypeDelay?: number;
  /**
   * `'legacy'` (default): one `uitest uiInput text` call per text (per code point with a delay);
   * `'sequential'`: one call per code point; `'bulk'`: one call, needs the delay 0 or unset.
   */
  inputStrategy?: InputStrategy;
  /** Deprecated and removed: no effect. Use the agent's `screenshotShrinkFactor`. */
  screenshotResizeScale?: number;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /**
   * How long one hdc run may take, ms (finite, > 0); a run that takes longer is stopped and its
   * call fails naming the command. Default {@link DEFAULT_TOOL_TIMEOUT_MS} (60 s). Not in spec
   * 4.10: a hung device or hdc server should fail a step, not hold it forever.
   */
  toolTimeout?: number;
}

interface ScreenInfo {
  width: number;
  height: number;
  density: number;
}

/**
 * A HarmonyOS device reached through hdc.
 *
 * Nothing runs in the constructor: the first screenshot, size or action finds hdc (failing
 * there when it is not installed) and the device (failing when it is not connected).
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
  readonly #toolOptions: ToolOptions;
  readonly #toolTimeout: number;
  readonly #autoDismissKeyboard: boolean;
  readonly #dismissStrategy: "esc-first" | "back-first";
  readonly #typeDelay: number | undefined;
  readonly #inputStrategy: InputStrategy;
  readonly #actions: readonly DeviceAction[];
  readonly #abilities = new Map<string, { ability: string; module: string | undefined }>();
  #toolPath: string | undefined;
  #screen: ScreenInfo | undefined;
  #localDir: Promise<string> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #destroyed = false;
  #resolveApp: (target: string) => string = (target) => target;

  /**
   * Creates the device; runs nothing yet.
   *
   * @param deviceId the connect key, as `hdc list targets` or {@link getConnectedDevices} lists it.
   * @param options see {@link MobileCDeviceOptions}.
   * @throws {TypeError} for an empty `deviceId` or `toolPath`, a non-boolean flag, an unknown
   * `keyboardDismissStrategy`, or a malformed custom action.
   * @throws {RangeError} for a negative or non-finite `keyboardTypeDelay`, an unknown
   * `inputStrategy`, or `'bulk'` with a positive delay.
   */
  constructor(deviceId: string, options: MobileCDeviceOptions = {}) {
    if (typeof deviceId !== "string" || deviceId.trim() === "") {
      throw new TypeError(
        `Cannot create MobileCDevice as 'deviceId' must be a non-empty connect key (see ` +
          `\`hdc list targets\`): current value is ${JSON.stringify(deviceId)}`,
      );
    }
    if (
      options.toolPath !== undefined &&
      (typeof options.toolPath !== "string" || options.toolPath.trim() === "")
    ) {
      throw new TypeError(
        `Cannot create MobileCDevice as 'toolPath' must be a non-empty path to hdc: current ` +
          `value is ${JSON.stringify(options.toolPath)}`,
      );
    }
    this.deviceId = deviceId;
    this.#toolOptions = { toolPath: options.toolPath };
    const timeout = options.toolTimeout ?? DEFAULT_TOOL_TIMEOUT_MS;
    if (!(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
      throw new RangeError(
        `Cannot create MobileCDevice as 'toolTimeout' must be a finite number of ms > 0: ` +
          `current value is ${JSON.stringify(options.toolTimeout)}`,
      );
    }
    this.#toolTimeout = timeout;
    checkBooleanOptions("MobileCDevice", options, ["autoDismissKeyboard"]);
    this.#autoDismissKeyboard = options.autoDismissKeyboard ?? true;
    const strategy = options.keyboardDismissStrategy ?? "esc-first";
    if (strategy !== "esc-first" && strategy !== "back-first") {
      throw new TypeError(
        `Cannot create MobileCDevice as 'keyboardDismissStrategy' must be 'esc-first' or ` +
          `'back-first': current value is ${JSON.stringify(strategy)}`,
      );
    }
    this.#dismissStrategy = strategy;
    const delay = options.keyboardTypeDelay;
    if (
      delay !== undefined && !(typeof delay === "number" && Number.isFinite(delay) && delay >= 0)
    ) {
      throw new RangeError(
        `Cannot create MobileCDevice as 'keyboardTypeDelay' must be a finite number of ms >= 0: ` +
          `current value is ${JSON.stringify(delay)}`,
      );
    }
    checkInputOptions(options);
    this.#typeDelay = delay;
    this.#inputStrategy = options.inputStrategy ?? "legacy";
    this.#actions = logDeviceActions(
      withCustomActions("MobileCDevice", this.#buildActions(), options.customActions),
    );
  }

  /**
   * The screen as `data:image/jpeg;base64,...`, physical pixels: `snapshot_display -f` to
   * {@link DEVICE_SCREENSHOT_PATH}, then `hdc file recv` into a temporary folder (the encoding
   * argument is not used: the device writes JPEG).
   *
   * @throws {Error} after `destroy()`, or with hdc's or the device's message when it fails.
   */
  async screenshotBase64(): Promise<string> {
    if (this.#destroyed) throw this.#destroyedError();
    const local = join(await this.#local(), "screen.jpeg");
    const output = await this.#shell(`snapshot_display -f ${DEVICE_SCREENSHOT_PATH}`);
    if (!/success/i.test(output)) {
      throw new Error(
        `Cannot take a screenshot of HarmonyOS device ${JSON.stringify(this.deviceId)}: ` +
          `snapshot_display said: ${output.trim().slice(0, 300)}`,
      );
    }
    await this.#hdc(["file", "recv", DEVICE_SCREENSHOT_PATH, local]);
    const bytes = await readFile(local);
    if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) {
      throw new Error(
        `Cannot take a screenshot of HarmonyOS device ${JSON.stringify(this.deviceId)}: ` +
          `${DEVICE_SCREENSHOT_PATH} is not a JPEG (${bytes.length} bytes)`,
      );
    }
    return `data:image/jpeg;base64,${bytes.toString("base64")}`;
  }

  /**
   * Logical size (physical / density) and `dpr` = density, from `hidumper -s RenderService -a
   * screen` (render resolution) and `hidumper -s DisplayManagerService -a -a` (`Density`; 1 when
   * the device does not report it). Asked once.
   *
   * @throws {Error} after `destroy()`, or when the screen size cannot be read.
   */
  async size(): Promise<Size> {
    if (this.#destroyed) throw this.#destroyedError();
    const { width, height, density } = await this.#screenInfo();
    return { width: width / density, height: height / density, dpr: density };
  }

  /**
   * The MobileC actions: `Tap`, `DoubleClick`, `Input`, `ClearInput`, `KeyboardPress`, `Scroll`,
   * `Swipe`, `DragAndDrop`, `LongPress`, `Launch`, `Terminate`, `RunToolShell`,
   * `MobileCBackButton`, `MobileCHomeButton`, `MobileCRecentAppsButton`, then the custom actions
   * (no `Pinch`: uitest's command line has no two-finger gesture).
   */
  actionSpace(): DeviceAction[] {
    return [...this.#actions];
  }

  /** `harmony <deviceId>`, for the report. */
  describe(): Promise<string> {
    return Promise.resolve(`harmony ${this.deviceId}`);
  }

  /** The device's local time (`date`), for `useDeviceTime`. */
  async getDeviceLocalTimeString(): Promise<string> {
    return (await this.#shell("date")).trim();
  }

  /**
   * Lets the agent resolve app names for the planner's `Launch` and `Terminate` (the agent's
   * `appNameMapping`).
   */
  useAppNameMapping(resolve: (target: string) => string): void {
    this.#resolveApp = resolve;
  }

  /**
   * Runs `command` in the device's shell (`hdc -t <id> shell <command>`) and resolves what it
   * printed. hdc does not pass on the command's exit code, so a failing command resolves too.
   *
   * @throws {Error} after `destroy()`, when hdc is missing, or when hdc fails (unknown device).
   */
  async runToolShell(command: string): Promise<string> {
    if (typeof command !== "string" || command.trim() === "") {
      throw new TypeError(
        `runToolShell needs a non-empty command: current value is ${JSON.stringify(command)}`,
      );
    }
    return await this.#shell(command);
  }

  /** Ends this device object: no hdc command runs after it; its temporary folder is deleted. */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#queue;
    const dir = this.#localDir;
    this.#localDir = undefined;
    if (dir) await rm(await dir, { recursive: true, force: true }).catch(() => {});
  }

  // ---- system actions (also the agent's methods) ---------------------------------------------

  /**
   * Opens `uri`: an http(s) URL in the browser (`aa start -A ohos.want.action.viewData -U`), an
   * explicit `bundle/Ability` (`aa start -a Ability -b bundle`), or a bundle name, whose launch
   * ability is read from `bm dump -n <bundle>` (its entry module's main ability, else the
   * ability with the home skill).
   *
   * @throws {Error} with the device's message when the bundle or ability does not exist.
   */
  async launch(uri: string): Promise<void> {
    const target = uri.trim();
    if (target === "") throw new TypeError("Cannot launch: the target is empty");
    let command: string;
    if (/^https?:\/\//i.test(target)) {
      command = `aa start -A ohos.want.action.viewData -U ${shellQuote(target)}`;
    } else if (target.includes("/")) {
      const [bundle, ability] = target.split("/", 2);
      command = `aa start -a ${shellQuote(ability)} -b ${shellQuote(bundle)}`;
    } else {
      const { ability, module } = await this.#launchAbility(target);
      command = `aa start -a ${shellQuote(ability)} -b ${shellQuote(target)}${
        module ? ` -m ${shellQuote(module)}` : ""
      }`;
    }
    const output = await this.#shell(command);
    if (!/start ability successfully/i.test(output)) {
      throw new Error(
        `Cannot launch ${JSON.stringify(target)} on HarmonyOS device ${
          JSON.stringify(this.deviceId)
        }: ${output.trim().slice(0, 300)}`,
      );
    }
  }

  /**
   * Force-stops the app of `uri` (a bundle name, or `bundle/Ability`: only the bundle is used).
   *
   * @throws {Error} with the device's message when the bundle does not exist.
   */
  async terminate(uri: string): Promise<void> {
    const bundle = uri.trim().split("/")[0];
    if (bundle === "") throw new TypeError("Cannot terminate: the bundle name is empty");
    const output = await this.#shell(`aa force-stop ${shellQuote(bundle)}`);
    if (/error/i.test(output)) {
      throw new Error(
        `Cannot terminate ${JSON.stringify(bundle)} on HarmonyOS device ${
          JSON.stringify(this.deviceId)
        }: ${output.trim().slice(0, 300)}`,
      );
    }
  }

  /** Presses the system Back key (`uitest uiInput keyEvent Back`). */
  async back(): Promise<void> {
    await this.#uiInput("keyEvent Back");
  }

  /** Presses the system Home key (`uitest uiInput keyEvent Home`). */
  async home(): Promise<void> {
    await this.#uiInput("keyEvent Home");
  }

  /** Opens the recent tasks (`uitest uiInput keyEvent 2210`, KEYCODE_VIRTUAL_MULTITASK). */
  async recentApps(): Promise<void> {
    await this.#uiInput(`keyEvent ${KEY_MULTITASK}`);
  }

  // ---- running hdc ---------------------------------------------------------------------------

  // One hdc run at a time for this device, in call order (the screenshot file is shared).
  #hdc(args: string[]): Promise<string> {
    if (this.#destroyed) return Promise.reject(this.#destroyedError());
    const run = this.#queue.then(async () => {
      this.#toolPath ??= findTool(this.#toolOptions);
      return (await runTool(this.#toolPath, ["-t", this.deviceId, ...args], this.#toolTimeout))
        .stdout;
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  #destroyedError(): Error {
    return new Error(
      `MobileCDevice ${JSON.stringify(this.deviceId)} was destroyed: no more hdc commands`,
    );
  }

  #shell(command: string): Promise<string> {
    return this.#hdc(["shell", command]);
  }

  async #uiInput(args: string): Promise<void> {
    const output = await this.#shell(`uitest uiInput ${args}`);
    const refused = UITEST_ERROR.exec(output);
    if (refused) {
      throw new Error(
        `uitest uiInput ${args} failed on HarmonyOS device ${JSON.stringify(this.deviceId)}: ${
          output.trim().slice(0, 300)
        }`,
      );
    }
  }

  #local(): Promise<string> {
    this.#localDir ??= mkdtemp(join(tmpdir(), "sdk-mobilec-"));
    return this.#localDir;
  }

  async #screenInfo(): Promise<ScreenInfo> {
    if (this.#screen) return this.#screen;
    const render = await this.#shell("hidumper -s RenderService -a screen");
    const size = /render (?:resolution|size)\s*[=:]\s*(\d+)x(\d+)/i.exec(render);
    if (!size) {
      throw new Error(
        `Cannot read the screen size of HarmonyOS device ${JSON.stringify(this.deviceId)}: ` +
          `hidumper -s RenderService printed no render resolution: ${render.trim().slice(0, 300)}`,
      );
    }
    const display = await this.#shell("hidumper -s DisplayManagerService -a -a");
    const density = Number(/^\s*Density\s*[:=]\s*([\d.]+)/mi.exec(display)?.[1]);
    this.#screen = {
      width: Number(size[1]),
      height: Number(size[2]),
      density: Number.isFinite(density) && density > 0 ? density : 1,
    };
    return this.#screen;
  }

  async #launchAbility(bundle: string): Promise<{ ability: string; module: string | undefined }> {
    const known = this.#abilities.get(bundle);
    if (known) return known;
    const found = resolveLaunchAbility(
      bundle,
      await this.#shell(`bm dump -n ${shellQuote(bundle)}`),
    );
    this.#abilities.set(bundle, found);
    return found;
  }

  // ---- gestures in physical pixels ------------------------------------------------------------

  async #physical(point: Point): Promise<[number, number]> {
    const { width, height, density } = await this.#screenInfo();
    const clamp = (v: number, max: number) => Math.min(Math.max(Math.round(v), 0), max - 1);
    return [clamp(point[0] * density, width), clamp(point[1] * density, height)];
  }

  async #tapAt(point: Point): Promise<void> {
    const [x, y] = await this.#physical(point);
    await this.#uiInput(`click ${x} ${y}`);
  }

  async #move(
    kind: "swipe" | "drag",
    from: Point,
    to: Point,
    ms: number,
  ): Promise<void> {
    const [x1, y1] = await this.#physical(from);
    const [x2, y2] = await this.#physical(to);
    // uitest takes a speed, not a duration: px/s, within its range.
    const speed = Math.round(
      Math.min(Math.max(Math.hypot(x2 - x1, y2 - y1) / (ms / 1000), MIN_SPEED), MAX_SPEED),
    );
    await this.#uiInput(`${kind} ${x1} ${y1} ${x2} ${y2} ${speed}`);
  }

  async #typeText(text: string, overrides: InputActionOptions | undefined, signal?: AbortSignal) {
    const { delay, strategy } = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    if (text === "") return;
    const send = (part: string) => this.#uiInput(`text ${shellQuote(part)}`);
    if (strategy === "bulk" || (strategy === "legacy" && delay === 0)) {
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

  // Selects the field's text (Ctrl+A) and deletes it.
  async #clearField(): Promise<void> {
    await this.#uiInput(`keyEvent ${KEY_CTRL} ${KEY_A}`);
    await this.#uiInput(`keyEvent ${KEY_BACKSPACE}`);
  }

  async #dismissKeyboard(): Promise<void> {
    await this.#uiInput(`keyEvent ${this.#dismissStrategy === "esc-first" ? KEY_ESCAPE : "Back"}`);
  }

  #buildActions(): DeviceAction[] {
    const unit = "vp (logical pixels: screenshot pixels / screen density)";
    const plain = deviceAction;
    const at = (action: string, param: ActionParams, name = "locate"): LocatedElement =>
      readLocateParam(action, param, true, name);
    return [
      tapAction(async (param) => await this.#tapAt(at("Tap", param).center)),
      doubleClickAction(async (param) => {
        const [x, y] = await this.#physical(at("DoubleClick", param).center);
        await this.#uiInput(`doubleClick ${x} ${y}`);
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
          await this.#uiInput(`keyEvent ${KEY_MOVE_END}`);
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
        const keyName = readStringParam("KeyboardPress", param, "keyName", true);
        const key = harmonyKeyEvent(keyName);
        if (target) await this.#tapAt(target.center);
        await this.#uiInput(`keyEvent ${key}`);
      }, {
        description:
          "Press one key on the device, such as Enter, Tab, Escape, Backspace or a letter.",
        params: {
          locate: "the element to tap before pressing; the focused element when left out",
          keyName: "one key name: Enter, Tab, Escape, Backspace, Delete, ArrowDown, a, 7",
        },
      }),
      scrollAction((param) => this.#scroll(param), {
        unit,
        params: { locate: "a point inside the area to scroll; the screen center when left out" },
      }),
      swipeAction(async (param) => {
        const { from, to } = swipeEnds(param, await this.size());
        const ms = readPositiveNumberParam("Swipe", param, "duration") ?? DEFAULT_SWIPE_MS;
        await this.#move("swipe", from, to, ms);
      }, { unit, defaultDurationMs: DEFAULT_SWIPE_MS }),
      dragAndDropAction(async (param) => {
        await this.#move(
          "drag",
          at("DragAndDrop", param, "from").center,
          at("DragAndDrop", param, "to").center,
          DRAG_MS,
        );
      }, {
        description:
          "Drag an element and drop it onto another place: press and hold 'from', move to 'to', lift.",
      }),
      longPressAction(async (param) => {
        const [x, y] = await this.#physical(at("LongPress", param).center);
        await this.#uiInput(`longClick ${x} ${y}`);
      }, {
        defaultDurationMs: 1500,
        description:
          "Press and hold an element with a finger (a long press; the system's long-press time, " +
          "'duration' is not used on HarmonyOS).",
      }),
      plain("Launch", "Open an app or a web page.", [{
        name: "uri",
        type: "string",
        required: true,
        description:
          "an app name (Settings), a bundle name (com.huawei.hmos.settings), bundle/Ability, or a web URL (https://...)",
      }], async (param) => {
        await this.launch(this.#resolveApp(readStringParam("Launch", param, "uri", true)));
      }),
      plain("Terminate", "Force-stop an app.", [{
        name: "uri",
        type: "string",
        required: true,
        description: "the app's name or bundle name (or bundle/Ability: only the bundle is used)",
      }], async (param) => {
        await this.terminate(this.#resolveApp(readStringParam("Terminate", param, "uri", true)));
      }),
      plain("RunToolShell", "Run a command in the device's shell (hdc shell).", [{
        name: "command",
        type: "string",
        required: true,
        description: "the shell command, without the `hdc shell` prefix",
      }], async (param) => {
        await this.runToolShell(readStringParam("RunToolShell", param, "command", true));
      }),
      plain("MobileCBackButton", "Press the system Back key.", [], () => this.back()),
      plain(
        "MobileCHomeButton",
        "Press the system Home key (the home screen).",
        [],
        () => this.home(),
      ),
      plain(
        "MobileCRecentAppsButton",
        "Open the recent tasks (the app switcher).",
        [],
        () => this.recentApps(),
      ),
    ];
  }

  async #scroll(param: ActionParams): Promise<void> {
    for (const stroke of scrollStrokes(param, await this.size())) {
      await this.#move("swipe", stroke.from, stroke.to, stroke.ms);
    }
  }
}
