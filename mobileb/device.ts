/**
 * `MobileBDevice`: an iPhone or iPad (device or simulator) as the device seam
 * (`AbstractInterface`), driven through the WebDriverAgent HTTP service (spec 4.9).
 *
 * Units: WebDriverAgent takes logical **points**; screenshots (`GET /screenshot`) are in the
 * screen's **physical** pixels. The device pixel ratio is WDA's screen `scale` (`GET /wda/screen`:
 * 2 or 3 on current iPhones) and the logical size is the window size in points (`GET
 * /session/:id/window/size`). Every point sent to WDA is snapped to the physical pixel grid
 * (a multiple of 1 / scale), so a box the model gives on the screenshot maps exactly.
 *
 * @module
 */

import type {
  AbstractInterface,
  DeviceAction,
  FrameStream,
  FrameStreamOptions,
  InputActionOptions,
  InputStrategy,
  Point,
  Size,
} from "@sdk/core";
import {
  checkBooleanOptions,
  checkInputOptions,
  logDeviceActions,
  logger,
  sleep,
  typeSettings,
  withCustomActions,
} from "@sdk/core";
import { type MobileBActionHost, mobileBActions } from "./actions.ts";
import { appSwitcherActions, dragActions, tapActions, type W3CActions } from "./gestures.ts";
import { startMjpegStream } from "./mjpeg.ts";
import {
  DRIVER_REQUEST_METHODS,
  DriverRequestError,
  type DriverRequestMethod,
  WdaClient,
} from "./wda.ts";

/** Default port of the WebDriverAgent HTTP service (spec 4.9 `driverPort`). */
export const DEFAULT_DRIVER_PORT = 8100;
/** Default host of the WebDriverAgent HTTP service (spec 4.9 `driverHost`). */
export const DEFAULT_DRIVER_HOST = "localhost";
/** Default port of WebDriverAgent's MJPEG server (spec 4.9 `driverMjpegPort`). */
export const DEFAULT_DRIVER_MJPEG_PORT = 9100;
// Backspaces typed to empty a field when WDA cannot clear the focused element itself.
const CLEAR_BACKSPACES = 100;
// The W3C element reference key in WDA's element answers.
const ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";

const log = logger("sdk:mobileb");

/** `driverMjpegFrameSource` (spec 4.9). */
export interface DriverMjpegFrameSource {
  /**
   * Use WDA's MJPEG stream as the frame source of `startObserving()`. Default `false`:
   * screenshots per observer tick.
   */
  enabled?: boolean;
}

/** Options of {@link MobileBDevice} (spec 4.9). Every option is optional. */
export interface MobileBDeviceOptions {
  /** Port of the WebDriverAgent service. Default 8100. */
  driverPort?: number;
  /** Host of the WebDriverAgent service. Default `'localhost'`. */
  driverHost?: string;
  /**
   * A module path (or npm specifier) whose device class replaces `MobileBDevice` in
   * `agentFromDeviceDriver` and `runMobileBYaml`; the module exports the class as its default
   * export or as a named export. `SDK_MOBILEB_DEVICE_CLASS_OVERRIDE` does the same; this option
   * wins. The constructor ignores it (it is already the class).
   */
  iOSDeviceClassOverride?: string;
  /**
   * An existing WDA session to use: no session is created, and `destroy()` detaches from it
   * instead of deleting it.
   */
  sessionId?: string;
  /** Port of WDA's MJPEG server. Default 9100. */
  driverMjpegPort?: number;
  /** The MJPEG stream as the observer's frame source. Default disabled. */
  driverMjpegFrameSource?: DriverMjpegFrameSource;
  /** Dismiss the keyboard after `Input` and `ClearInput`. Default `true`. */
  autoDismissKeyboard?: boolean;
  /**
   * Delay between typed code points, ms (finite, >= 0). With `'legacy'` a positive value types one
   * code point per call of WDA's keys endpoint.
   */
  keyboardTypeDelay?: number;
  /**
   * `'legacy'` (default): one keys call per text, or one per code point with a delay;
   * `'sequential'`: one keys call per code point; `'bulk'`: one keys call with the whole text,
   * needs `keyboardTypeDelay` 0 or unset.
   */
  inputStrategy?: InputStrategy;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
}

interface ScreenInfo {
  /** Window size, points. */
  width: number;
  height: number;
  /** Physical pixels per point. */
  scale: number;
}

/**
 * An iOS device or simulator reached through WebDriverAgent.
 *
 * Nothing connects in the constructor: `connect()`, the first `size()` or action creates the WDA
 * session (or checks the one given as `sessionId`), and fails there when WDA does not answer
 * (screenshots need no session).
 *
 * @example
 * ```ts ignore
 * import { MobileBAgent, MobileBDevice } from "@sdk/mobileb";
 *
 * const device = new MobileBDevice({ driverPort: 8100 });
 * const agent = new MobileBAgent(device);
 * await agent.launch("com.apple.Preferences");
 * await agent.aiTap("the General item");
 * await agent.destroy(); // deletes the session it created; WDA keeps running
 * ```
 */
export class MobileBDevice implements AbstractInterface {
  /** Always `"ios"`. */
  readonly interfaceType: "ios" = "ios";
  /** Host of the WebDriverAgent service. */
  readonly driverHost: string;
  /** Port of the WebDriverAgent service. */
  readonly driverPort: number;
  /** Port of WDA's MJPEG server. */
  readonly driverMjpegPort: number;
  /**
   * WDA's MJPEG stream as a frame source (spec 4.4 rule 3). Present only with
   * `driverMjpegFrameSource: { enabled: true }`; the observer takes screenshots otherwise.
   */
  readonly startFrameStream?: (options: FrameStreamOptions) => Promise<FrameStream>;
  readonly #client: WdaClient;
  readonly #givenSession: string | undefined;
  readonly #autoDismissKeyboard: boolean;
  readonly #typeDelay: number | undefined;
  readonly #inputStrategy: InputStrategy;
  readonly #actions: readonly DeviceAction[];
  readonly #streams = new Set<FrameStream>();
  #session: Promise<string> | undefined;
  #sessionId: string | undefined;
  #screen: Promise<ScreenInfo> | undefined;
  #destroyed = false;
  #resolveApp: (target: string) => string = (target) => target;

  /**
   * Creates the device; connects lazily.
   *
   * @param options see {@link MobileBDeviceOptions}.
   * @throws {TypeError} for a `driverHost` or `sessionId` that is not a non-empty string, a flag
   * that is not a boolean, a `driverMjpegFrameSource` that is not an object, or a malformed
   * custom action.
   * @throws {RangeError} for a port that is not an integer 1-65535, a negative or non-finite
   * `keyboardTypeDelay`, an unknown `inputStrategy`, or `'bulk'` with a positive delay.
   */
  constructor(options: MobileBDeviceOptions = {}) {
    const host = options.driverHost ?? DEFAULT_DRIVER_HOST;
    if (typeof host !== "string" || host.trim() === "") {
      throw new TypeError(
        `Cannot create MobileBDevice as 'driverHost' must be a non-empty string: current value is ${
          JSON.stringify(options.driverHost)
        }`,
      );
    }
    this.driverHost = host.trim();
    this.driverPort = checkPort("driverPort", options.driverPort, DEFAULT_DRIVER_PORT);
    this.driverMjpegPort = checkPort(
      "driverMjpegPort",
      options.driverMjpegPort,
      DEFAULT_DRIVER_MJPEG_PORT,
    );
    const session = options.sessionId;
    if (session !== undefined && (typeof session !== "string" || session.trim() === "")) {
      throw new TypeError(
        `Cannot create MobileBDevice as 'sessionId' must be a non-empty string: current value is ${
          JSON.stringify(session)
        }`,
      );
    }
    this.#givenSession = session?.trim();
    checkBooleanOptions("MobileBDevice", options, ["autoDismissKeyboard"]);
    this.#autoDismissKeyboard = options.autoDismissKeyboard ?? true;
    const frameSource = options.driverMjpegFrameSource;
    if (frameSource !== undefined && (typeof frameSource !== "object" || frameSource === null)) {
      throw new TypeError(
        `Cannot create MobileBDevice as 'driverMjpegFrameSource' must be an object { enabled }: ` +
          `current value is ${JSON.stringify(frameSource)}`,
      );
    }
    if (frameSource) {
      checkBooleanOptions("MobileBDevice", frameSource, ["enabled"]);
    }
    const delay = options.keyboardTypeDelay;
    if (
      delay !== undefined && !(typeof delay === "number" && Number.isFinite(delay) && delay >= 0)
    ) {
      throw new RangeError(
        `Cannot create MobileBDevice as 'keyboardTypeDelay' must be a finite number of ms >= 0: ` +
          `current value is ${JSON.stringify(delay)}`,
      );
    }
    checkInputOptions(options);
    this.#typeDelay = delay;
    this.#inputStrategy = options.inputStrategy ?? "legacy";
    this.#client = new WdaClient(this.driverHost, this.driverPort);
    if (frameSource?.enabled === true) {
      this.startFrameStream = (streamOptions) => this.#startFrameStream(streamOptions);
    }
    this.#actions = logDeviceActions(
      withCustomActions("MobileBDevice", mobileBActions(this.#actionHost()), options.customActions),
    );
  }

  /** The WDA session in use: the one given as `sessionId`, or the one created; before: undefined. */
  get sessionId(): string | undefined {
    return this.#sessionId ?? this.#givenSession;
  }

  /**
   * Creates the WDA session (or checks the one given as `sessionId`) and reads the screen. The
   * first size() or action does this too; `agentFromDeviceDriver` calls it so that a driver
   * that is not running fails there.
   *
   * @throws {DriverNotRunningError} when WDA does not answer (saying how to start it).
   * @throws {DriverRequestError} when WDA refuses to create the session.
   * @throws {Error} naming `sessionId` when WDA does not know the session given there.
   */
  async connect(): Promise<void> {
    await this.#sessionPath();
    await this.#screenInfo();
  }

  /**
   * The screen as a `data:image/png;base64,...` URI (or JPEG, as WDA sends it), physical pixels,
   * from `GET /screenshot`. The encoding argument is not used: the agent encodes once.
   *
   * @throws {DriverNotRunningError}, {DriverConnectionError}, {DriverRequestError} from WDA.
   */
  async screenshotBase64(): Promise<string> {
    this.#checkLive();
    const value = await this.#client.request("GET", "/screenshot");
    if (typeof value !== "string" || value === "") {
      throw new Error(
        `WebDriverAgent at ${this.#client.where} answered GET /screenshot without an image`,
      );
    }
    const data = value.replace(/\s+/g, "");
    return `data:image/${data.startsWith("/9j/") ? "jpeg" : "png"};base64,${data}`;
  }

  /**
   * Logical size in points (the window size) and `dpr` = WDA's screen scale. Read once.
   *
   * @throws {Error} after `destroy()`, or when WDA cannot be reached.
   */
  async size(): Promise<Size> {
    const info = await this.#screenInfo();
    return { width: info.width, height: info.height, dpr: info.scale };
  }

  /**
   * The MobileB actions: `Tap`, `DoubleClick`, `Input`, `ClearInput`, `KeyboardPress`, `Scroll`,
   * `Swipe`, `DragAndDrop`, `LongPress`, `Pinch`, `Launch`, `Terminate`, `RunDriverRequest`,
   * `MobileBHomeButton`, `MobileBAppSwitcher`, then the custom actions. Each `call` throws a
   * `TypeError` naming the action and parameter for a malformed parameter.
   */
  actionSpace(): DeviceAction[] {
    return [...this.#actions];
  }

  /** `ios <host>:<port>`, for the report. */
  describe(): Promise<string> {
    return Promise.resolve(`ios ${this.#client.where}`);
  }

  /**
   * Makes the planner's `Launch` and `Terminate` actions resolve app names with `resolve` (the
   * agent's `appNameMapping`; `MobileBAgent` calls this). Without it, targets are used as given.
   */
  useAppNameMapping(resolve: (target: string) => string): void {
    if (typeof resolve !== "function") {
      throw new TypeError("useAppNameMapping needs a function from app name to bundle id");
    }
    this.#resolveApp = resolve;
  }

  // ---- system actions (also the agent's methods) ---------------------------------------------

  /**
   * Opens `target`: a URL with a scheme (`https://...` opens in Safari, `tel:`, `mailto:` or an
   * app's own scheme opens its app) through `POST /session/:id/url`, or a bundle identifier
   * (`com.apple.Preferences`) through `POST /session/:id/wda/apps/launch`.
   *
   * @throws {TypeError} for an empty target.
   * @throws {DriverRequestError} with WDA's message when the app or URL cannot be opened.
   */
  async launch(target: string): Promise<void> {
    const uri = String(target ?? "").trim();
    if (uri === "") throw new TypeError("Cannot launch: the target is empty");
    const session = await this.#sessionPath();
    if (/^[a-z][a-z\d+.-]*:/i.test(uri)) {
      await this.#client.request("POST", `${session}/url`, { url: uri });
    } else {
      await this.#client.request("POST", `${session}/wda/apps/launch`, { bundleId: uri });
    }
  }

  /**
   * Terminates the app with `bundleId` (`POST /session/:id/wda/apps/terminate`).
   *
   * @returns whether the app was running (WDA's answer).
   * @throws {TypeError} for an empty bundle id.
   */
  async terminate(bundleId: string): Promise<boolean> {
    const id = String(bundleId ?? "").trim();
    if (id === "") throw new TypeError("Cannot terminate: the bundle id is empty");
    const session = await this.#sessionPath();
    const value = await this.#client.request("POST", `${session}/wda/apps/terminate`, {
      bundleId: id,
    });
    return value === true;
  }

  /** Goes to the Home screen (`POST /wda/homescreen`). */
  async home(): Promise<void> {
    this.#checkLive();
    await this.#client.request("POST", "/wda/homescreen");
  }

  /**
   * Opens the app switcher. WDA has no route for it: this performs the gesture iOS recognises, a
   * swipe up from the bottom edge that rests before lifting (see `appSwitcherActions`).
   */
  async appSwitcher(): Promise<void> {
    const screen = await this.#screenInfo();
    await this.#perform(appSwitcherActions(screen));
  }

  /**
   * Sends one request to WebDriverAgent (spec 4.9 `runDriverRequest`). `:sessionId` or
   * `{sessionId}` in `endpoint` is replaced by the session in use (created first if needed).
   *
   * @param method `GET`, `POST`, `DELETE` or `PUT`.
   * @param endpoint the route's path, e.g. `/status` or `/session/:sessionId/wda/apps/state`.
   * @param data the JSON body (POST and PUT; `{}` when left out).
   * @returns the `value` of WDA's answer.
   * @throws {TypeError} for another method or an endpoint that does not start with `/`.
   * @throws {DriverRequestError} with WDA's `error` and `message` when it answers with an error.
   */
  async runDriverRequest(
    method: DriverRequestMethod,
    endpoint: string,
    data?: unknown,
  ): Promise<unknown> {
    this.#checkLive();
    const verb = typeof method === "string" ? method.toUpperCase() : method;
    if (!DRIVER_REQUEST_METHODS.includes(verb as DriverRequestMethod)) {
      throw new TypeError(
        `runDriverRequest: 'method' must be one of ${DRIVER_REQUEST_METHODS.join(", ")}: ` +
          `current value is ${JSON.stringify(method)}`,
      );
    }
    if (typeof endpoint !== "string" || !endpoint.startsWith("/")) {
      throw new TypeError(
        `runDriverRequest: 'endpoint' must be a path starting with '/' (e.g. /status): current ` +
          `value is ${JSON.stringify(endpoint)}`,
      );
    }
    let path = endpoint;
    if (/:sessionId\b|\{sessionId\}/.test(path)) {
      const session = (await this.#sessionPath()).slice("/session/".length);
      path = path.replace(/:sessionId\b|\{sessionId\}/g, encodeURIComponent(session));
    }
    return await this.#client.request(verb as DriverRequestMethod, path, data);
  }

  /**
   * Stops the MJPEG streams, then deletes the WDA session it created (`DELETE /session/:id`), or
   * detaches from a session given as `sessionId` (left alive). Idempotent; never rejects:
   * failures are logged (run log `sdk:mobileb`, and a warning). Afterwards every call throws.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    const streams = [...this.#streams];
    this.#streams.clear();
    for (const stream of streams) {
      await stream.stop().catch((e) => warn("stopping the MJPEG stream failed", e));
    }
    const created = this.#givenSession === undefined ? this.#session : undefined;
    this.#session = undefined;
    if (!created) return;
    try {
      const id = await created.catch(() => undefined);
      if (id !== undefined) {
        await this.#client.request("DELETE", `/session/${encodeURIComponent(id)}`, undefined, {
          timeoutMs: 10_000,
        });
      }
    } catch (error) {
      // WDA keeps one session: a later session on the same WDA already ended this one.
      if (error instanceof DriverRequestError && error.error === "invalid session id") {
        log("the WDA session had already ended", { error: error.message });
        return;
      }
      warn(`deleting the WDA session at ${this.#client.where} failed`, error);
    }
  }

  // ---- WDA ----------------------------------------------------------------------------------

  #checkLive(): void {
    if (this.#destroyed) {
      throw new Error(
        `MobileBDevice at ${this.#client.where} was destroyed; create a new device`,
      );
    }
  }

  // `/session/<id>`, creating the session (or checking the given one) the first time.
  async #sessionPath(): Promise<string> {
    this.#checkLive();
    this.#session ??= this.#openSession().catch((error) => {
      this.#session = undefined;
      throw error;
    });
    return `/session/${encodeURIComponent(await this.#session)}`;
  }

  async #openSession(): Promise<string> {
    const given = this.#givenSession;
    if (given !== undefined) {
      try {
        await this.#client.request("GET", `/session/${encodeURIComponent(given)}`);
      } catch (error) {
        if (!(error instanceof DriverRequestError)) throw error;
        throw new Error(
          `The WDA session ${JSON.stringify(given)} given as sessionId is not usable on ` +
            `WebDriverAgent at ${this.#client.where}: ${error.message}. Leave sessionId out to ` +
            `create a session.`,
          { cause: error },
        );
      }
      this.#sessionId = given;
      return given;
    }
    const value = await this.#client.request("POST", "/session", {
      capabilities: { alwaysMatch: {}, firstMatch: [{}] },
    });
    const id = (value as { sessionId?: unknown } | null)?.sessionId;
    if (typeof id !== "string" || id === "") {
      throw new Error(
        `WebDriverAgent at ${this.#client.where} answered POST /session without a sessionId: ` +
          JSON.stringify(value)?.slice(0, 200),
      );
    }
    this.#sessionId = id;
    return id;
  }

  #screenInfo(): Promise<ScreenInfo> {
    this.#checkLive();
    this.#screen ??= this.#readScreen().catch((error) => {
      this.#screen = undefined;
      throw error;
    });
    return this.#screen;
  }

  async #readScreen(): Promise<ScreenInfo> {
    const session = await this.#sessionPath();
    const [screen, window] = await Promise.all([
      this.#client.request("GET", "/wda/screen"),
      this.#client.request("GET", `${session}/window/size`),
    ]);
    const scale = (screen as { scale?: unknown } | null)?.scale;
    const { width, height } = (window ?? {}) as { width?: unknown; height?: unknown };
    if (
      !isPositive(scale) || !isPositive(width) || !isPositive(height)
    ) {
      throw new Error(
        `WebDriverAgent at ${this.#client.where} gave no usable screen: GET /wda/screen answered ` +
          `${JSON.stringify(screen)?.slice(0, 200)}, GET ${session}/window/size ${
            JSON.stringify(window)?.slice(0, 200)
          }`,
      );
    }
    return { width, height, scale };
  }

  async #perform(actions: W3CActions, signal?: AbortSignal): Promise<void> {
    const session = await this.#sessionPath();
    await this.#client.request("POST", `${session}/actions`, actions, { signal });
  }

  async #startFrameStream(options: FrameStreamOptions): Promise<FrameStream> {
    this.#checkLive();
    const host = this.driverHost.includes(":") ? `[${this.driverHost}]` : this.driverHost;
    const url = `http://${host}:${this.driverMjpegPort}/`;
    const stream = await startMjpegStream(
      url,
      options,
      (error) => warn("the MJPEG frame source stopped", error),
    );
    const tracked: FrameStream = {
      stop: async () => {
        this.#streams.delete(tracked);
        await stream.stop();
      },
    };
    this.#streams.add(tracked);
    return tracked;
  }

  // What the action space needs of this device, private parts included.
  #actionHost(): MobileBActionHost {
    return {
      autoDismissKeyboard: this.#autoDismissKeyboard,
      screen: () => this.#screenInfo(),
      size: () => this.size(),
      point: (point) => this.#point(point),
      tapAt: (point, taps) => this.#tapAt(point, taps),
      drag: (from, to, ms, holdBefore, holdAfter) =>
        this.#drag(from, to, ms, holdBefore, holdAfter),
      perform: (actions, signal) => this.#perform(actions, signal),
      keys: (text) => this.#keys(text),
      typeText: (text, overrides, signal) => this.#typeText(text, overrides, signal),
      clearField: () => this.#clearField(),
      dismissKeyboard: () => this.#dismissKeyboard(),
      resolveApp: (target) => this.#resolveApp(target),
      launch: (target) => this.launch(target),
      terminate: (bundleId) => this.terminate(bundleId),
      runDriverRequest: (method, endpoint, data) => this.runDriverRequest(method, endpoint, data),
      home: () => this.home(),
      appSwitcher: () => this.appSwitcher(),
    };
  }

  // ---- geometry -------------------------------------------------------------------------------

  // A logical point on the screen, snapped to the physical pixel grid (WDA takes points; the
  // model's box was on physical pixels).
  async #point(point: Point): Promise<Point> {
    const { width, height, scale } = await this.#screenInfo();
    const snap = (v: number, max: number) =>
      Math.min(Math.max(Math.round(v * scale), 0), Math.round(max * scale) - 1) / scale;
    return [snap(point[0], width), snap(point[1], height)];
  }

  async #tapAt(point: Point, taps = 1): Promise<void> {
    await this.#perform(tapActions(await this.#point(point), taps));
  }

  async #drag(from: Point, to: Point, ms: number, holdBefore = 0, holdAfter = 0) {
    await this.#perform(
      dragActions(await this.#point(from), await this.#point(to), ms, holdBefore, holdAfter),
    );
  }

  // ---- text ---------------------------------------------------------------------------------

  async #keys(text: string, signal?: AbortSignal): Promise<void> {
    const session = await this.#sessionPath();
    await this.#client.request("POST", `${session}/wda/keys`, { value: [...text] }, { signal });
  }

  async #typeText(text: string, overrides: InputActionOptions | undefined, signal?: AbortSignal) {
    const { delay, strategy } = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    if (text === "") return;
    if (strategy === "bulk") {
      const session = await this.#sessionPath();
      await this.#client.request("POST", `${session}/wda/keys`, { value: [text] }, { signal });
      return;
    }
    if (strategy === "legacy" && delay === 0) {
      await this.#keys(text, signal);
      return;
    }
    let first = true;
    for (const codePoint of text) {
      if (!first && delay > 0) await sleep(delay, signal);
      first = false;
      signal?.throwIfAborted();
      await this.#keys(codePoint, signal);
    }
  }

  // Empties the focused field: WDA's clear of the active element, or backspaces where the
  // driver cannot (no focused element it knows, or no such route).
  async #clearField(): Promise<void> {
    const session = await this.#sessionPath();
    try {
      const active = await this.#client.request("GET", `${session}/element/active`);
      const ref = active as Record<string, unknown> | null;
      const id = ref?.[ELEMENT_KEY] ?? ref?.ELEMENT;
      if (typeof id !== "string") throw new Error("no focused element");
      await this.#client.request(
        "POST",
        `${session}/element/${encodeURIComponent(id)}/clear`,
      );
    } catch (error) {
      if (
        !(error instanceof DriverRequestError) && (error as Error).message !== "no focused element"
      ) {
        throw error;
      }
      await this.#keys("\b".repeat(CLEAR_BACKSPACES));
    }
  }

  // WDA refuses to dismiss a keyboard that has no dismiss key (many iPhone layouts); that is
  // logged, not an error of the input.
  async #dismissKeyboard(): Promise<void> {
    const session = await this.#sessionPath();
    try {
      await this.#client.request("POST", `${session}/wda/keyboard/dismiss`, {});
    } catch (error) {
      if (!(error instanceof DriverRequestError)) throw error;
      log("keyboard not dismissed", { error: error.message });
    }
  }
}

function checkPort(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(typeof value === "number" && Number.isInteger(value) && value > 0 && value < 65536)) {
    throw new RangeError(
      `Cannot create MobileBDevice as '${name}' must be an integer port 1-65535: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

function isPositive(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

function warn(what: string, error: unknown): void {
  const message = (error as Error)?.message ?? String(error);
  log(what, { error: message });
  console.warn(`@sdk/mobileb: ${what}: ${message}`);
}
