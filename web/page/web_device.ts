/**
 * The web page device: the device seam (`AbstractInterface`) over any {@link PageDriver}.
 *
 * It turns the model's web actions (Tap, Input, Scroll, ...) into driver input, gives the agent
 * viewport screenshots, and after each action waits for what that action started (a navigation,
 * network requests), never for what was already going on.
 *
 * @module
 */

import type {
  AbstractInterface,
  DeviceAction,
  DeviceEvent,
  ElementsDescriptionOptions,
  FrameStream,
  FrameStreamOptions,
  InputStrategy,
  LocatedElement,
  Point,
  ScreenshotEncoding,
  Size,
  TargetIdentity,
} from "../_core.ts";
import { checkBooleanOptions, checkInputOptions, SdkRangeError, SdkTypeError } from "../_core.ts";
import { logDeviceActions, withCustomActions } from "../_core.ts";
import type { PageDriver, PageDriverTouch } from "./page_driver.ts";
import { pageLocalTime } from "./_page_scripts.ts";
import { elementsDescription, locateByXpath, targetsAt, xpathsAt } from "./_dom_queries.ts";
import { PageSetup } from "./_page_setup.ts";
import { screenshotDataUri, startScreencastStream } from "./_page_capture.ts";
import { ActionSettler, EVENT_FLUSH_MAX_MS, withinMs } from "./_settle.ts";
import { webActions } from "./_web_actions.ts";
import {
  checkNativeDialogs,
  NativeDialogAnswerer,
  type NativeDialogsOption,
} from "./native_dialogs.ts";

/** Options of {@link WebPageDevice}. */
export interface WebPageDeviceOptions {
  /**
   * Longest wait, in ms, for the load of a main-frame navigation an action started. `0` skips
   * the wait. Default 5000. Reaching it is not an error.
   */
  waitForNavigationTimeout?: number;
  /**
   * Longest wait, in ms, for the requests an action started to finish. `0` skips the wait.
   * Default 2000. Reaching it is not an error (a long-poll must not break the agent).
   */
  waitForNetworkIdleTimeout?: number;
  /**
   * Delay between typed characters in ms (finite, >= 0), for `Input`; an action's own value wins.
   * Default: the driver's own (no delay). With `'legacy'` the driver's typing applies it.
   */
  keyboardTypeDelay?: number;
  /**
   * How `Input` enters text unless the action says otherwise (spec 4.2, rules for `aiInput`):
   * `'legacy'` (default) the driver's typing; `'sequential'` one Unicode code point at a time with
   * `keyboardTypeDelay` between them; `'bulk'` one `insertText` (a single insertion input event;
   * `replace` selects the old value first), which needs `keyboardTypeDelay` 0 or unset.
   */
  inputStrategy?: InputStrategy;
  /**
   * Adds the touch gestures `Swipe` and `Pinch` to the action space, and makes `LongPress` a
   * touch long press (spec 4.7). The page is made to see a touch screen (`navigator.maxTouchPoints`
   * and `(pointer: coarse)` from the first action or screenshot, `ontouchstart` in documents loaded
   * after that); mouse actions keep working. Needs a driver with touch input (Chromium-based
   * browsers). Default `false`.
   */
  enableTouchEventsInActionSpace?: boolean;
  /**
   * Keep navigation in the current tab: links and forms targeting `_blank`, and `window.open`
   * with a URL, open in the page itself instead of a new tab or window. Default `true`; `false`
   * keeps the browser's behaviour. Set up before the first action on each page (for the current
   * document and every later one).
   */
  forceSameTabNavigation?: boolean;
  /**
   * Render `select` elements in the page (spec 4.7): a style element gives them Chromium's
   * `appearance: base-select`, so an open picker and its options appear in screenshots (and have
   * boxes) instead of opening as a native popup. Default `true`; `false` leaves pages alone.
   * Set up like `forceSameTabNavigation`, and also before the first screenshot of each page.
   */
  forceChromeSelectRendering?: boolean;
  /**
   * Extra actions (spec 4.7), appended to the built-in action space: the planner is offered them
   * with their parameters and `aiAct` can call them. `locate` parameters arrive as a
   * `LocatedElement` in CSS pixels. Names must differ from the built-in actions and from each
   * other. `any`, as in the spec: each action types its own `param`.
   */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /**
   * How the page's native dialogs (`alert`, `confirm`, `prompt`, `beforeunload`) are answered,
   * from the moment the device is created; each answered dialog is a device event (a `Log` step
   * of the report). Default `"dismiss"`: Cancel, except that `beforeunload` lets the page go.
   * `"accept"`: OK on every dialog. A function answers each one. See {@link NativeDialogsOption}.
   */
  nativeDialogs?: NativeDialogsOption;
}

/** Default of {@link WebPageDeviceOptions.waitForNavigationTimeout}, in ms. */
export const DEFAULT_NAVIGATION_TIMEOUT_MS = 5000;
/** Default of {@link WebPageDeviceOptions.waitForNetworkIdleTimeout}, in ms. */
export const DEFAULT_NETWORK_IDLE_TIMEOUT_MS = 2000;
/**
 * A web page as a device: screenshots, size, the web action space, and settling after actions.
 *
 * Coordinates of actions are CSS pixels (the `center` of a {@link LocatedElement}); screenshots
 * are physical pixels (CSS size x device pixel ratio). The device never closes the page.
 *
 * @example Drive a page without a model
 * ```ts ignore
 * import { chromium } from "playwright-core";
 * import { DriverBPageDriver, WebPageDevice } from "@sdk/web";
 *
 * const browser = await chromium.launch();
 * const page = await browser.newPage();
 * const device = new WebPageDevice(new DriverBPageDriver(page), { waitForNetworkIdleTimeout: 1000 });
 * const navigate = device.actionSpace().find((a) => a.name === "Navigate")!;
 * await device.beforeAction();
 * await navigate.call({ url: "https://example.com" }, {});
 * await device.afterAction(); // the page has loaded
 * const png = await device.screenshotBase64(); // "data:image/png;base64,..."
 * await device.destroy();
 * await browser.close();
 * ```
 */
export class WebPageDevice implements AbstractInterface {
  /** Always `"web-page"`. */
  readonly interfaceType: "web-page" = "web-page";
  #driver: PageDriver;
  // What every document of each page gets (same-tab navigation, select rendering).
  readonly #pageSetup: PageSetup;
  // Settling: between beforeAction and the end of afterAction, requests the page starts are
  // tracked; anything started before beforeAction is never looked at.
  readonly #settler: ActionSettler;
  readonly #touchEnabled: boolean;
  readonly #actions: readonly DeviceAction[];

  // Where this device last put the pointer: a Scroll without `locate` scrolls there.
  #pointer: Point | undefined;
  #destroyed = false;
  readonly #streams = new Set<FrameStream>();
  readonly #dialogs: NativeDialogAnswerer;
  readonly #eventListeners = new Set<(event: DeviceEvent) => void>();

  /**
   * Starts the DevTools-protocol screencast of the current page as a frame stream (spec 4.4
   * rule 3); present only when the driver has {@link PageDriver.startScreencast}, so an agent over
   * a driver without it samples screenshots instead. What the stream guarantees (Chromium): one
   * frame of the current picture right after the start, then one per repaint and none while the
   * page is still; JPEG base64 at `options.quality` (default 80), at the viewport's CSS size (a
   * screenshot is CSS size x `dpr`); timestamps in ms since the epoch, never decreasing. The
   * stream stays on the page that was current when it started (a later `setDriver` does not move
   * it). `destroy()` stops the streams still running.
   *
   * @throws {SdkRangeError} when `quality` is not a number from 1 to 100.
   * @throws {UnsupportedActionError} when the browser has no DevTools protocol.
   */
  readonly startFrameStream?: (options: FrameStreamOptions) => Promise<FrameStream>;

  /**
   * Creates a device over a page's driver. It answers the page's native dialogs from now on
   * (`nativeDialogs`); its other listeners are added at the first `beforeAction`.
   *
   * @param driver the page, through its driver's {@link PageDriver}.
   * @param options timeouts and typing delay; see {@link WebPageDeviceOptions}.
   * @throws {SdkRangeError} when a timeout or `keyboardTypeDelay` is negative or not finite, for an
   * unknown `inputStrategy`, or `'bulk'` with a positive `keyboardTypeDelay`.
   * @throws {SdkTypeError} when `forceSameTabNavigation`, `forceChromeSelectRendering` or
   * `enableTouchEventsInActionSpace` is not a boolean, touch is enabled on a driver without touch
   * input, a custom action is malformed or reuses an action's name, or `nativeDialogs` is neither
   * `"dismiss"`, `"accept"` nor a function.
   */
  constructor(driver: PageDriver, options: WebPageDeviceOptions = {}) {
    this.#driver = driver;
    checkBooleanOptions("WebPageDevice", options, [
      "forceSameTabNavigation",
      "forceChromeSelectRendering",
      "enableTouchEventsInActionSpace",
    ]);
    checkNativeDialogs(options.nativeDialogs);
    this.#pageSetup = new PageSetup({
      sameTabNavigation: options.forceSameTabNavigation ?? true,
      selectRendering: options.forceChromeSelectRendering ?? true,
    });
    this.#settler = new ActionSettler(() => this.#driver, {
      navigation: checkMs(
        "waitForNavigationTimeout",
        options.waitForNavigationTimeout,
        DEFAULT_NAVIGATION_TIMEOUT_MS,
      ),
      networkIdle: checkMs(
        "waitForNetworkIdleTimeout",
        options.waitForNetworkIdleTimeout,
        DEFAULT_NETWORK_IDLE_TIMEOUT_MS,
      ),
    });
    const typeDelay = options.keyboardTypeDelay === undefined
      ? undefined
      : checkMs("keyboardTypeDelay", options.keyboardTypeDelay, 0);
    checkInputOptions(options);
    this.#touchEnabled = options.enableTouchEventsInActionSpace ?? false;
    if (this.#touchEnabled && !driver.touch) {
      throw new SdkTypeError(
        "Cannot create WebPageDevice as 'enableTouchEventsInActionSpace' needs touch input, which " +
          "this page's driver cannot send (Chromium-based browsers only): leave the option unset",
      );
    }
    const actions = webActions({
      driver: () => this.#driver,
      touch: () => this.#touchInput(),
      pointer: () => this.#pointer,
      pointerMoved: (point) => this.#pointer = point,
      typeDelay,
      inputStrategy: options.inputStrategy ?? "legacy",
    }, this.#touchEnabled);
    // Every call goes to the run log (sdk:device), custom actions included.
    this.#actions = logDeviceActions(
      withCustomActions("WebPageDevice", actions, options.customActions),
    );
    if (driver.startScreencast) {
      this.startFrameStream = (options: FrameStreamOptions) =>
        startScreencastStream(this.#driver, options, this.#streams);
    }
    this.#dialogs = new NativeDialogAnswerer(options.nativeDialogs, (event) => this.#emit(event));
    this.#dialogs.watch(driver);
  }

  /** The driver this device acts through: the current page's. */
  get driver(): PageDriver {
    return this.#driver;
  }

  /**
   * Switches the device to another page's driver (a browser-wide agent following its active
   * page). The event listeners move to the new driver, an action being settled stops waiting for
   * the old page, and the pointer position is forgotten. The old page is left open, and its
   * native dialogs are still answered: every page the device drove is, until `destroy()`.
   */
  setDriver(driver: PageDriver): void {
    if (driver === this.#driver) return;
    this.#driver = driver;
    if (!this.#destroyed) this.#dialogs.watch(driver);
    this.#pointer = undefined;
    this.#settler.driverChanged();
  }

  /**
   * Viewport screenshot in physical pixels, encoded by the browser as `encoding` asks: a
   * `data:image/jpeg;base64,...` or (the default) `data:image/png;base64,...` URI. The first one
   * of each page sets the page up first, so the model sees selects as they will render.
   */
  async screenshotBase64(encoding?: ScreenshotEncoding): Promise<string> {
    await this.#preparePage();
    await this.#enableTouch();
    return await screenshotDataUri(this.driver, encoding);
  }

  /** CSS viewport size and device pixel ratio. */
  async size(): Promise<Size> {
    const { width, height, dpr } = await this.driver.viewport();
    return { width, height, dpr };
  }

  /**
   * The web actions: `Tap`, `DoubleClick`, `RightClick`, `Hover`, `Input`, `ClearInput`,
   * `KeyboardPress`, `Scroll`, `Navigate`, `Reload`, `GoBack`, `DragAndDrop`, `LongPress`, and
   * with `enableTouchEventsInActionSpace` `Swipe` and `Pinch` (docs/model-protocol.md, "Action
   * spaces"). Each `call` throws a `TypeError` naming the action and the parameter when a
   * parameter is missing or malformed (a `RangeError` for a `distance` that is not positive).
   */
  actionSpace(): DeviceAction[] {
    return [...this.#actions];
  }

  /**
   * Starts tracking the navigations and requests the next action starts. The first time on each
   * page, first sets the page up (`forceSameTabNavigation`, `forceChromeSelectRendering`).
   */
  async beforeAction(): Promise<void> {
    if (this.#destroyed) return;
    await this.#preparePage();
    await this.#enableTouch();
    this.#settler.begin();
  }

  /**
   * Waits for what the action since {@link beforeAction} started: the load of a main-frame
   * navigation (up to `waitForNavigationTimeout`), then the requests it sent (up to
   * `waitForNetworkIdleTimeout`). Returns at once when it started neither, and without
   * `beforeAction`. Never throws on a timeout.
   */
  async afterAction(): Promise<void> {
    await this.#settler.settle();
  }

  /** The page's URL, for the report. */
  describe(): Promise<string> {
    return this.driver.url();
  }

  /**
   * The page's address without its fragment: it changes when an action navigates (a link, a
   * submitted form), which ends a plan of several actions (docs/model-protocol.md).
   */
  async screenContext(): Promise<string> {
    const url = await this.driver.url();
    const hash = url.indexOf("#");
    return hash < 0 ? url : url.slice(0, hash);
  }

  /**
   * Finds the first rendered element `xpath` selects in the main frame (spec 4.2 `xpath`); one
   * outside the viewport is scrolled into its middle first. `rect` is its bounding box and
   * `center` the middle of its part inside the viewport, CSS pixels. A selected text or attribute
   * node stands for its element.
   *
   * @returns the element (its `description` names the xpath), or `undefined` when no rendered
   * element matches.
   * @throws {SdkTypeError} naming the expression when it is invalid or does not select nodes.
   */
  async locateByXpath(xpath: string): Promise<LocatedElement | undefined> {
    return await locateByXpath(this.driver, xpath);
  }

  /**
   * XPaths of the element at `point` (CSS pixels) in the main frame, for the locate cache (spec
   * 2.2): `//*[@id="..."]` when its id is unique on the page, else its positional absolute path.
   * `[]` for a frame or shadow host (their inside is not reachable by a page xpath).
   */
  async xpathsAt(point: Point): Promise<string[]> {
    return await xpathsAt(this.driver, point);
  }

  /**
   * The identity of the element at each point (CSS pixels), for the target checks between the
   * actions of one plan (docs/model-protocol.md, "Target checks"): the topmost element there,
   * through open shadow roots and same-origin frames, with its tag and role, accessible name,
   * the text of its row and its box. One script evaluation for all points. `undefined` for a
   * canvas, a video or a cross-origin frame, where the agent compares pixels instead.
   */
  async targetsAt(points: readonly Point[]): Promise<(TargetIdentity | undefined)[]> {
    return await targetsAt(this.driver, points);
  }

  /**
   * The page's local time for `useDeviceTime` (spec 2.1): ISO 8601 with the page's UTC offset,
   * e.g. `"2020-05-17T15:50:30.000+05:30"`, which `Date.parse` reads. From the page's own clock
   * and time zone (an emulated time zone or a patched `Date` shows).
   *
   * @throws {Error} when the page navigates while the script runs.
   */
  getDeviceLocalTimeString(): Promise<string> {
    return this.driver.evaluate(pageLocalTime);
  }

  /**
   * The page's elements as text for `domIncluded` (spec 4.3): one line per meaningful element
   * with its tag, id, key attributes (`href`, `src`, `alt`, `aria-label`, input values but never a
   * password's, ...), own text and box in CSS pixels of the viewport; same-origin frames and open
   * shadow roots included. `visibleOnly: false` also lists elements that are not rendered (flag
   * `hidden`) or outside the viewport (`off-screen`). At most 60,000 characters, ending with
   * `... (truncated)` when cut. Format: `describePageElements` in `_dom_scripts.ts`.
   *
   * @throws {Error} when the page navigates while the script runs.
   */
  getElementsDescription(options: ElementsDescriptionOptions): Promise<string> {
    return elementsDescription(this.driver, options);
  }

  /**
   * Subscribes to the device's events: each native dialog it answered, once answered (title
   * `Dialog: <type>, <answer>`, the dialog's message as text, its type, message, default value
   * and answer as parameters). Returns the unsubscription.
   */
  onDeviceEvent(listener: (event: DeviceEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  /**
   * Removes the device's listeners from the driver and its init scripts (same-tab navigation,
   * select rendering) from later documents; the current document keeps them. Stops answering
   * native dialogs: the pages' dialogs are their driver library's again. Never closes the page.
   * Idempotent; after it, `beforeAction`/`afterAction` do nothing (actions still reach the page).
   */
  async destroy(): Promise<void> {
    this.#destroyed = true;
    this.#dialogs.stop();
    const streams = [...this.#streams].map((stream) => stream.stop().catch(() => {}));
    this.#settler.destroy();
    await withinMs(
      Promise.all([this.#pageSetup.removeInitScripts(), ...streams]),
      EVENT_FLUSH_MAX_MS,
    );
  }

  /**
   * Turns `forceSameTabNavigation` on or off for the pages this device sets up from now on (the
   * extension bridge's connect option, spec 4.7, given before the tab is first used). A page
   * already set up keeps its links as they are.
   */
  setForceSameTabNavigation(enabled: boolean): void {
    this.#pageSetup.setSameTabNavigation(enabled);
  }

  #emit(event: DeviceEvent): void {
    for (const listener of [...this.#eventListeners]) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the dialog was answered.
      }
    }
  }

  async #preparePage(): Promise<void> {
    if (!this.#destroyed) await this.#pageSetup.prepare(this.#driver);
  }

  // The current driver's touch input (a browser-wide agent may have switched pages).
  #touchInput(): PageDriverTouch {
    const touch = this.driver.touch;
    if (!touch) {
      throw new SdkTypeError(
        "Cannot send touch input: this page's driver has none (Chromium-based browsers only)",
      );
    }
    return touch;
  }

  // With touch enabled, makes each page see a touch screen before it is looked at or acted on.
  async #enableTouch(): Promise<void> {
    if (this.#touchEnabled && !this.#destroyed) await this.#touchInput().enable();
  }
}

function checkMs(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new SdkRangeError(
      `Cannot create WebPageDevice as '${name}' must be a finite number >= 0: current value is ${value}`,
    );
  }
  return value;
}
