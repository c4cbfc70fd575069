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
 * The class ties together what each module does over the device's {@link WdaSession}: the screen
 * (`screen.ts`), touches (`touch.ts`), typing and the keyboard (`typing.ts`), the MJPEG frame
 * source (`frame_source.ts`) and the action space (`actions.ts`).
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
  logDeviceActions,
  SdkTypeError,
  ToolError,
  UnsupportedActionError,
  withCustomActions,
} from "@sdk/core";
import { type MobileBActionHost, mobileBActions } from "./actions.ts";
import { MjpegFrameSource } from "./frame_source.ts";
import { appSwitcherActions } from "./gestures.ts";
import { type MobileBDeviceOptions, type MobileBSettings, readMobileBOptions } from "./options.ts";
import { Screen } from "./screen.ts";
import { WdaSession } from "./session.ts";
import { iosKeyText } from "./keys.ts";
import { targetsAt } from "./targets.ts";
import { drag, dragAndDrop, hold, perform, scroll, tapAt } from "./touch.ts";
import { clearField, dismissKeyboard, keys, typeText } from "./typing.ts";
import { DRIVER_REQUEST_METHODS, type DriverRequestMethod, WDA_TOOL, WdaClient } from "./wda.ts";

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
  readonly #settings: MobileBSettings;
  readonly #client: WdaClient;
  readonly #session: WdaSession;
  readonly #screen: Screen;
  readonly #frames: MjpegFrameSource;
  readonly #actions: readonly DeviceAction[];
  #resolveApp: (target: string) => string = (target) => target;

  /**
   * Creates the device; connects lazily.
   *
   * @param options see {@link MobileBDeviceOptions}.
   * @throws {SdkTypeError} for a `driverHost` or `sessionId` that is not a non-empty string, a flag
   * that is not a boolean, a `driverMjpegFrameSource` that is not an object, or a malformed
   * custom action.
   * @throws {SdkRangeError} for a port that is not an integer 1-65535, a `driverConnectTimeout`
   * that is not a finite number > 0, a negative or non-finite
   * `keyboardTypeDelay`, an unknown `inputStrategy`, or `'bulk'` with a positive delay.
   */
  constructor(options: MobileBDeviceOptions = {}) {
    const settings = readMobileBOptions(options);
    this.#settings = settings;
    this.driverHost = settings.driverHost;
    this.driverPort = settings.driverPort;
    this.driverMjpegPort = settings.driverMjpegPort;
    this.#client = new WdaClient(
      this.driverHost,
      this.driverPort,
      settings.driverConnectTimeout,
    );
    this.#session = new WdaSession(this.#client, settings.sessionId);
    this.#screen = new Screen(this.#session);
    this.#frames = new MjpegFrameSource(
      this.#session,
      this.driverHost,
      this.driverMjpegPort,
      settings.driverConnectTimeout,
    );
    if (settings.mjpegFrameSource) {
      this.startFrameStream = (streamOptions) => this.#frames.start(streamOptions);
    }
    this.#actions = logDeviceActions(
      withCustomActions("MobileBDevice", mobileBActions(this.#actionHost()), options.customActions),
    );
  }

  /** The WDA session in use: the one given as `sessionId`, or the one created; before: undefined. */
  get sessionId(): string | undefined {
    return this.#session.id;
  }

  /**
   * Creates the WDA session (or checks the one given as `sessionId`) and reads the screen. The
   * first size() or action does this too; `agentFromDeviceDriver` calls it so that a driver
   * that is not running fails there.
   *
   * @throws {ConnectionError} `refused` when WDA is not running (saying how to start it),
   * `timeout` when it does not answer within `driverConnectTimeout`.
   * @throws {ToolError} (tool `"WebDriverAgent"`) when WDA refuses to create the session.
   * @throws {SdkTypeError} naming `sessionId` when WDA does not know the session given there.
   */
  async connect(): Promise<void> {
    await this.#session.path();
    await this.#screen.info();
  }

  /**
   * The screen as a `data:image/png;base64,...` URI (or JPEG, as WDA sends it), physical pixels,
   * from `GET /screenshot`. The encoding argument is not used: the agent encodes once.
   *
   * @throws {ConnectionError} when WDA cannot be reached; {ToolError} when it answers an error.
   */
  async screenshotBase64(): Promise<string> {
    this.#session.checkLive();
    const value = await this.#client.request("GET", "/screenshot");
    if (typeof value !== "string" || value === "") {
      throw new ToolError(
        `WebDriverAgent at ${this.#client.where} answered GET /screenshot without an image`,
        { tool: WDA_TOOL, output: JSON.stringify(value)?.slice(0, 200) ?? "" },
      );
    }
    const data = value.replace(/\s+/g, "");
    return `data:image/${data.startsWith("/9j/") ? "jpeg" : "png"};base64,${data}`;
  }

  /**
   * Logical size in points (the window size) and `dpr` = WDA's screen scale. Read once.
   *
   * @throws {ConnectionError} after `destroy()` (`lost`), or when WDA cannot be reached.
   */
  async size(): Promise<Size> {
    const info = await this.#screen.info();
    return { width: info.width, height: info.height, dpr: info.scale };
  }

  /**
   * The foreground app's bundle id (WebDriverAgent's `/wda/activeAppInfo`): another app coming
   * to the front ends a plan of several actions (docs/model-protocol.md).
   */
  async screenContext(): Promise<string> {
    this.#session.checkLive();
    const info = await this.#client.request("GET", "/wda/activeAppInfo") as { bundleId?: string };
    return `app ${info?.bundleId ?? "?"}`;
  }

  /**
   * What is at each point (points), from one `GET /source` of the app in front (mobileb/targets.ts):
   * an element's type, accessibility identifier, label and frame. Between the actions of one plan
   * the agent compares them (docs/model-protocol.md, "Target checks"). When WDA gives no source,
   * nothing is named and the agent compares the targets' pixels.
   *
   * @throws {ConnectionError} when WDA cannot be reached.
   */
  async targetsAt(points: readonly Point[]): Promise<(TargetIdentity | undefined)[]> {
    this.#session.checkLive();
    return await targetsAt(this.#client, points);
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
   *
   * @throws {SdkTypeError} when `resolve` is not a function.
   */
  useAppNameMapping(resolve: (target: string) => string): void {
    this.#resolveApp = checkAppNameResolver(resolve, "bundle id");
  }

  // ---- system actions (also the agent's methods) ---------------------------------------------

  /**
   * Opens `target`: a URL with a scheme (`https://...` opens in Safari, `tel:`, `mailto:` or an
   * app's own scheme opens its app) through `POST /session/:id/url`, or a bundle identifier
   * (`com.apple.Preferences`) through `POST /session/:id/wda/apps/launch`.
   *
   * @throws {SdkTypeError} for an empty target.
   * @throws {ToolError} with WDA's message when the app or URL cannot be opened.
   */
  async launch(target: string): Promise<void> {
    const uri = String(target ?? "").trim();
    if (uri === "") throw new SdkTypeError("Cannot launch: the target is empty");
    const session = await this.#session.path();
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
   * @throws {SdkTypeError} for an empty bundle id.
   */
  async terminate(bundleId: string): Promise<boolean> {
    const id = String(bundleId ?? "").trim();
    if (id === "") throw new SdkTypeError("Cannot terminate: the bundle id is empty");
    const session = await this.#session.path();
    const value = await this.#client.request("POST", `${session}/wda/apps/terminate`, {
      bundleId: id,
    });
    return value === true;
  }

  /** Goes to the Home screen (`POST /wda/homescreen`). */
  async home(): Promise<void> {
    this.#session.checkLive();
    await this.#client.request("POST", "/wda/homescreen");
  }

  /**
   * Opens the app switcher. WDA has no route for it: this performs the gesture iOS recognises, a
   * swipe up from the bottom edge that rests before lifting (see `appSwitcherActions`).
   */
  async appSwitcher(): Promise<void> {
    const screen = await this.#screen.info();
    await perform(this.#session, appSwitcherActions(screen));
  }

  /**
   * Sends one request to WebDriverAgent (spec 4.9 `runDriverRequest`). `:sessionId` or
   * `{sessionId}` in `endpoint` is replaced by the session in use (created first if needed).
   *
   * @param method `GET`, `POST`, `DELETE` or `PUT`.
   * @param endpoint the route's path, e.g. `/status` or `/session/:sessionId/wda/apps/state`.
   * @param data the JSON body (POST and PUT; `{}` when left out).
   * @returns the `value` of WDA's answer.
   * @throws {UnsupportedActionError} when `exposeRunDriverRequestAction` is `false`.
   * @throws {SdkTypeError} for another method or an endpoint that does not start with `/`.
   * @throws {ToolError} with WDA's `error` and `message` when it answers with an error.
   */
  async runDriverRequest(
    method: DriverRequestMethod,
    endpoint: string,
    data?: unknown,
  ): Promise<unknown> {
    this.#session.checkLive();
    if (!this.#settings.exposeRunDriverRequestAction) {
      throw new UnsupportedActionError(
        "runDriverRequest is disabled: this device was created with " +
          "exposeRunDriverRequestAction: false",
        "runDriverRequest",
      );
    }
    const verb = typeof method === "string" ? method.toUpperCase() : method;
    if (!DRIVER_REQUEST_METHODS.includes(verb as DriverRequestMethod)) {
      throw new SdkTypeError(
        `runDriverRequest: 'method' must be one of ${DRIVER_REQUEST_METHODS.join(", ")}: ` +
          `current value is ${JSON.stringify(method)}`,
      );
    }
    if (typeof endpoint !== "string" || !endpoint.startsWith("/")) {
      throw new SdkTypeError(
        `runDriverRequest: 'endpoint' must be a path starting with '/' (e.g. /status): current ` +
          `value is ${JSON.stringify(endpoint)}`,
      );
    }
    let path = endpoint;
    if (/:sessionId\b|\{sessionId\}/.test(path)) {
      const session = (await this.#session.path()).slice("/session/".length);
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
    await this.#session.close(() => this.#frames.stopAll());
  }

  // What the action space needs of this device, private parts included.
  #actionHost(): MobileBActionHost {
    const session = this.#session;
    const screen = this.#screen;
    return {
      // A secure text field (XCUIElementTypeSecureTextField) takes a secret: written as ***.
      takesSecret: async (point) => (await this.targetsAt([point]))[0]?.secret === true,
      screen: () => screen.info(),
      size: () => this.size(),
      point: (point) => screen.point(point),
      tap: (point) => tapAt(session, screen, point),
      doubleTap: (point) => tapAt(session, screen, point, 2),
      swipe: (from, to, ms) => drag(session, screen, from, to, ms),
      scroll: (strokes) => scroll(session, screen, strokes),
      dragAndDrop: (from, to) => dragAndDrop(session, screen, from, to),
      longPress: (point, ms) => hold(session, screen, point, ms),
      perform: (actions, signal) => perform(session, actions, signal),
      key: (keyName) => {
        const text = iosKeyText(keyName);
        return () => keys(session, text);
      },
      typeText: (text, overrides, signal) =>
        typeText(session, this.#settings.typing, text, overrides, signal),
      clearField: () => clearField(session),
      dismissKeyboard: this.#settings.autoDismissKeyboard
        ? () => dismissKeyboard(session)
        : undefined,
      resolveApp: (target) => this.#resolveApp(target),
      launch: (target) => this.launch(target),
      terminate: (bundleId) => this.terminate(bundleId),
      exposeRunDriverRequestAction: this.#settings.exposeRunDriverRequestAction,
      runDriverRequest: (method, endpoint, data) => this.runDriverRequest(method, endpoint, data),
      home: () => this.home(),
      appSwitcher: () => this.appSwitcher(),
    };
  }
}
