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
  ActionContext,
  ActionParams,
  ActionParamSpec,
  DeviceAction,
  ElementsDescriptionOptions,
  FrameStream,
  FrameStreamOptions,
  InputActionOptions,
  InputStrategy,
  LocatedElement,
  Point,
  ScreenshotEncoding,
  Size,
} from "../_core.ts";
import {
  checkBooleanOptions,
  checkInputOptions,
  encodeBase64,
  sleep,
  typeSettings,
} from "../_core.ts";
import type { TypeSettings } from "../_core.ts";
import { logDeviceActions, normalizeKeyCombo, withCustomActions } from "../_core.ts";
import {
  clearInputAction,
  doubleClickAction,
  INPUT_MODES,
  inputAction,
  keyboardPressAction,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
  SCROLL_DIRECTIONS,
  SCROLL_TYPES,
  scrollAction,
  tapAction,
} from "../_core.ts";
import type {
  DriverRequest,
  PageDriver,
  PageDriverTouch,
  PageFileChooser,
  Unsubscribe,
} from "./page_driver.ts";
import { gestureActions } from "./_gestures.ts";

import {
  editFocusedField,
  type FieldEdit,
  keepNavigationInTab,
  pageLocalTime,
  renderSelectsInPage,
  waitForScrollToSettle,
} from "./_page_scripts.ts";
import { describePageElements } from "./_dom_scripts.ts";
import { findByXpath } from "./_xpath_script.ts";
import { xpathsAtPoint } from "./_xpath_at_script.ts";

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
}

/** Default of {@link WebPageDeviceOptions.waitForNavigationTimeout}, in ms. */
export const DEFAULT_NAVIGATION_TIMEOUT_MS = 5000;
/** Default of {@link WebPageDeviceOptions.waitForNetworkIdleTimeout}, in ms. */
export const DEFAULT_NETWORK_IDLE_TIMEOUT_MS = 2000;
// JPEG quality of streamed frames when the observer does not say.
const DEFAULT_STREAM_QUALITY = 80;

// A single Scroll without a distance moves most of a screen, keeping some context visible.
const SCROLL_SCREEN_FRACTION = 0.7;
// "Scroll to the end" is one wheel event far larger than any page.
const SCROLL_TO_END_DELTA = 10_000_000;
const SCROLL_SETTLE_MAX_MS = 1000;
// Bound on the round trip that flushes driver events in afterAction (a page blocked by a dialog
// does not answer).
const EVENT_FLUSH_MAX_MS = 500;
// Bound on the element description sent with domIncluded: about 15k tokens.
const ELEMENTS_DESCRIPTION_MAX_CHARS = 60_000;

// How long a Tap with files waits, once the page has handled its click, for a file chooser.
const FILE_CHOOSER_WAIT_MS = 1000;
// Chromium's "Unable to capture screenshot" on a busy renderer: asked this many times in all.
const SCREENSHOT_ATTEMPTS = 3;
const SCREENSHOT_RETRY_MS = 100;

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
  // What every document of each page gets (same-tab navigation, select rendering), the drivers
  // whose page has it, and how to undo the init scripts.
  readonly #pageScripts: (() => void)[] = [];
  readonly #preparedDrivers = new WeakSet<PageDriver>();
  readonly #removeInitScripts: (() => Promise<void>)[] = [];

  readonly #navigationTimeout: number;
  readonly #networkIdleTimeout: number;
  readonly #typeDelay: number | undefined;
  readonly #inputStrategy: InputStrategy;
  readonly #touchEnabled: boolean;
  readonly #actions: readonly DeviceAction[];

  // Where this device last put the pointer: a Scroll without `locate` scrolls there.
  #pointer: Point | undefined;

  // Settling: between beforeAction and the end of afterAction, requests the page starts are
  // tracked; anything started before beforeAction is never looked at.
  #unsubscribe: Unsubscribe[] | undefined;
  #tracking = false;
  #destroyed = false;
  readonly #inFlight = new Set<string>();
  readonly #navigations = new Set<string>();
  readonly #waiters = new Set<() => void>();
  readonly #streams = new Set<FrameStream>();

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
   * @throws {RangeError} when `quality` is not a number from 1 to 100.
   * @throws {Error} when the browser has no DevTools protocol.
   */
  readonly startFrameStream?: (options: FrameStreamOptions) => Promise<FrameStream>;

  /**
   * Creates a device over a page's driver. Listeners are added at the first `beforeAction`.
   *
   * @param driver the page, through its driver's {@link PageDriver}.
   * @param options timeouts and typing delay; see {@link WebPageDeviceOptions}.
   * @throws {RangeError} when a timeout or `keyboardTypeDelay` is negative or not finite, for an
   * unknown `inputStrategy`, or `'bulk'` with a positive `keyboardTypeDelay`.
   * @throws {TypeError} when `forceSameTabNavigation`, `forceChromeSelectRendering` or
   * `enableTouchEventsInActionSpace` is not a boolean, touch is enabled on a driver without touch
   * input, or a custom action is malformed or reuses an action's name.
   */
  constructor(driver: PageDriver, options: WebPageDeviceOptions = {}) {
    this.#driver = driver;
    checkBooleanOptions("WebPageDevice", options, [
      "forceSameTabNavigation",
      "forceChromeSelectRendering",
      "enableTouchEventsInActionSpace",
    ]);
    if (options.forceSameTabNavigation ?? true) this.#pageScripts.push(keepNavigationInTab);
    if (options.forceChromeSelectRendering ?? true) this.#pageScripts.push(renderSelectsInPage);
    this.#navigationTimeout = checkMs(
      "waitForNavigationTimeout",
      options.waitForNavigationTimeout,
      DEFAULT_NAVIGATION_TIMEOUT_MS,
    );
    this.#networkIdleTimeout = checkMs(
      "waitForNetworkIdleTimeout",
      options.waitForNetworkIdleTimeout,
      DEFAULT_NETWORK_IDLE_TIMEOUT_MS,
    );
    this.#typeDelay = options.keyboardTypeDelay === undefined
      ? undefined
      : checkMs("keyboardTypeDelay", options.keyboardTypeDelay, 0);
    checkInputOptions(options);
    this.#inputStrategy = options.inputStrategy ?? "legacy";
    this.#touchEnabled = options.enableTouchEventsInActionSpace ?? false;
    if (this.#touchEnabled && !driver.touch) {
      throw new TypeError(
        "Cannot create WebPageDevice as 'enableTouchEventsInActionSpace' needs touch input, which " +
          "this page's driver cannot send (Chromium-based browsers only): leave the option unset",
      );
    }
    // Every call goes to the run log (sdk:device), custom actions included.
    this.#actions = logDeviceActions(
      withCustomActions("WebPageDevice", this.#buildActions(), options.customActions),
    );
    if (driver.startScreencast) {
      this.startFrameStream = (options: FrameStreamOptions) => this.#startFrameStream(options);
    }
  }

  /** The driver this device acts through: the current page's. */
  get driver(): PageDriver {
    return this.#driver;
  }

  /**
   * Switches the device to another page's driver (a browser-wide agent following its active
   * page). The event listeners move to the new driver, an action being settled stops waiting for
   * the old page, and the pointer position is forgotten. The old page is left open.
   */
  setDriver(driver: PageDriver): void {
    if (driver === this.#driver) return;
    const subscribed = this.#unsubscribe !== undefined;
    for (const unsubscribe of this.#unsubscribe ?? []) unsubscribe();
    this.#unsubscribe = undefined;
    this.#driver = driver;
    this.#pointer = undefined;
    this.#inFlight.clear();
    this.#navigations.clear();
    if (subscribed && !this.#destroyed) this.#subscribe();
    this.#notify();
  }

  /**
   * Viewport screenshot in physical pixels, encoded by the browser as `encoding` asks: a
   * `data:image/jpeg;base64,...` or (the default) `data:image/png;base64,...` URI. The first one
   * of each page sets the page up first, so the model sees selects as they will render.
   */
  async screenshotBase64(encoding?: ScreenshotEncoding): Promise<string> {
    await this.#preparePage();
    await this.#enableTouch();
    const mime = encoding?.format === "jpeg" ? "image/jpeg" : "image/png";
    return `data:${mime};base64,${encodeBase64(await this.#capture(encoding))}`;
  }

  /**
   * The driver's screenshot, asked again (up to {@link SCREENSHOT_ATTEMPTS} times, a short pause
   * between) when Chromium answers "Unable to capture screenshot": a busy renderer sometimes has
   * no frame ready, and the next request gets one. Other errors are thrown at once.
   */
  async #capture(encoding?: ScreenshotEncoding): Promise<Uint8Array> {
    for (let attempt = 1;; attempt++) {
      try {
        return await this.driver.screenshot(encoding);
      } catch (error) {
        const transient = /Unable to capture screenshot/i.test(String((error as Error)?.message));
        if (!transient || attempt >= SCREENSHOT_ATTEMPTS) throw error;
        await sleep(SCREENSHOT_RETRY_MS);
      }
    }
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
    this.#subscribe();
    this.#inFlight.clear();
    this.#navigations.clear();
    this.#tracking = true;
  }

  /**
   * Waits for what the action since {@link beforeAction} started: the load of a main-frame
   * navigation (up to `waitForNavigationTimeout`), then the requests it sent (up to
   * `waitForNetworkIdleTimeout`). Returns at once when it started neither, and without
   * `beforeAction`. Never throws on a timeout.
   */
  async afterAction(): Promise<void> {
    if (!this.#tracking) return;
    try {
      await this.#flushDriverEvents();
      if (this.#navigations.size > 0 && this.#navigationTimeout > 0) {
        await this.#waitUntil(() => this.#navigations.size === 0, this.#navigationTimeout);
      }
      if (this.#inFlight.size > 0 && this.#networkIdleTimeout > 0) {
        await this.#waitUntil(() => this.#inFlight.size === 0, this.#networkIdleTimeout);
      }
    } finally {
      this.#tracking = false;
      this.#inFlight.clear();
      this.#navigations.clear();
    }
  }

  /** The page's URL, for the report. */
  describe(): Promise<string> {
    return this.driver.url();
  }

  /**
   * Finds the first rendered element `xpath` selects in the main frame (spec 4.2 `xpath`); one
   * outside the viewport is scrolled into its middle first. `rect` is its bounding box and
   * `center` the middle of its part inside the viewport, CSS pixels. A selected text or attribute
   * node stands for its element.
   *
   * @returns the element (its `description` names the xpath), or `undefined` when no rendered
   * element matches.
   * @throws {TypeError} naming the expression when it is invalid or does not select nodes.
   */
  async locateByXpath(xpath: string): Promise<LocatedElement | undefined> {
    const hit = await this.driver.evaluate(findByXpath, xpath);
    if (hit && "error" in hit) {
      throw new TypeError(`Invalid xpath ${JSON.stringify(xpath)}: ${hit.error}`);
    }
    if (!hit) return undefined;
    return {
      description: `xpath ${xpath}`,
      rect: hit.rect,
      center: [Math.round(hit.center[0]), Math.round(hit.center[1])],
    };
  }

  /**
   * XPaths of the element at `point` (CSS pixels) in the main frame, for the locate cache (spec
   * 2.2): `//*[@id="..."]` when its id is unique on the page, else its positional absolute path.
   * `[]` for a frame or shadow host (their inside is not reachable by a page xpath).
   */
  async xpathsAt(point: Point): Promise<string[]> {
    return await this.driver.evaluate(xpathsAtPoint, point);
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
    return this.driver.evaluate(describePageElements, {
      visibleOnly: options.visibleOnly === true,
      maxChars: ELEMENTS_DESCRIPTION_MAX_CHARS,
    });
  }

  /**
   * Removes the device's listeners from the driver and its init scripts (same-tab navigation,
   * select rendering) from later documents; the current document keeps them. Never closes the
   * page. Idempotent; after it, `beforeAction`/`afterAction` do nothing (actions still reach the
   * page).
   */
  async destroy(): Promise<void> {
    this.#destroyed = true;
    const streams = [...this.#streams].map((stream) => stream.stop().catch(() => {}));
    this.#tracking = false;
    for (const unsubscribe of this.#unsubscribe ?? []) unsubscribe();
    this.#unsubscribe = undefined;
    // Each pending wait sees #destroyed and releases its afterAction.
    for (const check of [...this.#waiters]) check();
    const removals = this.#removeInitScripts.splice(0).map((remove) => remove().catch(() => {}));
    await withinMs(Promise.all([...removals, ...streams]), EVENT_FLUSH_MAX_MS);
  }

  async #startFrameStream(options: FrameStreamOptions): Promise<FrameStream> {
    const quality = options.quality ?? DEFAULT_STREAM_QUALITY;
    if (typeof quality !== "number" || !(quality >= 1 && quality <= 100)) {
      throw new RangeError(
        `Cannot start the frame stream as 'quality' must be a number from 1 to 100: current ` +
          `value is ${JSON.stringify(quality)}`,
      );
    }
    const driver = this.driver;
    if (!driver.startScreencast) {
      throw new Error("Cannot start the frame stream: this page's driver has no screencast");
    }
    const onFrame = options.onFrame;
    const screencast = await driver.startScreencast({
      quality: Math.round(quality),
      minIntervalMs: options.minIntervalMs,
      onFrame: (data, timestamp) => onFrame({ data, format: "jpeg", timestamp }),
    });
    let stopping: Promise<void> | undefined;
    const stream: FrameStream = {
      stop: () =>
        stopping ??= screencast.stop().finally(() => {
          this.#streams.delete(stream);
        }),
    };
    this.#streams.add(stream);
    return stream;
  }

  // ---- page setup: same-tab navigation, select rendering --------------------------------

  // Once per page: an init script for later documents, and a run in the current one. Each
  // script is idempotent, so a retry after a half-done setup is harmless.
  /**
   * Turns `forceSameTabNavigation` on or off for the pages this device sets up from now on (the
   * extension bridge's connect option, spec 4.7, given before the tab is first used). A page
   * already set up keeps its links as they are.
   */
  setForceSameTabNavigation(enabled: boolean): void {
    const at = this.#pageScripts.indexOf(keepNavigationInTab);
    if (enabled && at < 0) this.#pageScripts.unshift(keepNavigationInTab);
    if (!enabled && at >= 0) this.#pageScripts.splice(at, 1);
  }

  async #preparePage(): Promise<void> {
    const driver = this.#driver;
    if (this.#destroyed || this.#preparedDrivers.has(driver)) return;
    try {
      for (const script of this.#pageScripts) {
        this.#removeInitScripts.push(await driver.addInitScript(script));
      }
    } catch {
      // The page is closing: the action will tell. Try again before the next one.
      return;
    }
    this.#preparedDrivers.add(driver);
    for (const script of this.#pageScripts) {
      await driver.evaluate(script).catch(() => {
        // The page is navigating: the init script covers the new document.
      });
    }
  }

  // ---- settling -------------------------------------------------------------------------

  #subscribe(): void {
    if (this.#unsubscribe) return;
    this.#unsubscribe = [
      this.driver.onRequestStart((request: DriverRequest) => {
        if (!this.#tracking) return;
        this.#inFlight.add(request.id);
        if (request.isMainFrameNavigation) this.#navigations.add(request.id);
        this.#notify();
      }),
      this.driver.onRequestEnd((request: DriverRequest, failed: boolean) => {
        if (!this.#tracking) return;
        this.#inFlight.delete(request.id);
        // A finished navigation request (or redirect hop) still has to load; a failed one
        // (aborted, download, network error) will not.
        if (failed) this.#navigations.delete(request.id);
        this.#notify();
      }),
      this.driver.onMainFrameLoad(() => {
        if (!this.#tracking) return;
        this.#navigations.clear();
        this.#notify();
      }),
    ];
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }

  // Resolves when `done()` holds, on the timeout, or on destroy; never rejects.
  #waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (done()) return resolve();
      const release = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done() || this.#destroyed) release();
      };
      const timer = setTimeout(release, timeoutMs);
      this.#waiters.add(check);
    });
  }

  // An input call resolves when the page got the event, which can be before the driver has
  // told us about the navigation or request the event started. One round trip to the page
  // delivers those events first.
  async #flushDriverEvents(): Promise<void> {
    await withinMs(
      this.driver.evaluate("0").catch(() => {
        // Fails while the page is navigating (its request has been seen by then) or closed:
        // either way there is nothing left to deliver.
      }),
      EVENT_FLUSH_MAX_MS,
    );
  }

  // ---- actions --------------------------------------------------------------------------

  #buildActions(): DeviceAction[] {
    const locate = (required: boolean, description: string): ActionParamSpec => ({
      name: "locate",
      type: "locate",
      required,
      description,
    });
    const action = (
      name: string,
      description: string,
      params: ActionParamSpec[],
      run: (
        param: ActionParams,
        signal: AbortSignal | undefined,
        context: ActionContext | undefined,
      ) => Promise<void>,
    ): DeviceAction => ({
      name,
      description,
      params,
      call: async (param: ActionParams, context: ActionContext) => {
        context?.signal?.throwIfAborted();
        await run(param ?? {}, context?.signal, context);
      },
    });

    return [
      tapAction((param, context) => this.#tap(param, context), {
        description: "Click an element once with the left mouse button.",
        params: { locate: "the element to click" },
        extraParams: [{
          name: "files",
          type: "files",
          required: false,
          description:
            "only when the click opens a file chooser (an upload button or file input): the files to choose, as an array of paths; relative paths are relative to the upload directory the user allowed; several files only for an input that accepts multiple files",
        }],
      }),
      doubleClickAction(async (param, { signal }) => {
        const target = readLocateParam("DoubleClick", param, true);
        await this.#click(target, signal, { clickCount: 2 });
      }),
      action(
        "RightClick",
        "Right-click an element (for the page's own context menu, not the browser's).",
        [locate(true, "the element to right-click")],
        async (param, signal) => {
          const target = readLocateParam("RightClick", param, true);
          await this.#click(target, signal, { button: "right" });
        },
      ),
      action("Hover", "Move the mouse pointer over an element without clicking.", [
        locate(true, "the element to hover"),
      ], async (param) => {
        const [x, y] = readLocateParam("Hover", param, true).center;
        await this.driver.mouse.move(x, y);
        this.#pointer = [x, y];
      }),
      inputAction((param, context) => this.#input(param, context.signal, context.inputOptions)),
      clearInputAction(async (param, { signal }) => {
        const target = readLocateParam("ClearInput", param, true);
        await this.#click(target, signal);
        await this.#selectAllInField(signal);
        await this.driver.keyboard.press("Backspace");
      }),
      keyboardPressAction(async (param, { signal }) => {
        const target = readLocateParam("KeyboardPress", param, false);
        const keyName = readStringParam("KeyboardPress", param, "keyName", true);
        let combo: string;
        try {
          combo = normalizeKeyCombo(keyName);
        } catch (error) {
          throw new TypeError(
            `Cannot run KeyboardPress: 'keyName' is not a key: ${(error as Error).message}`,
          );
        }
        if (target) await this.#click(target, signal);
        signal?.throwIfAborted();
        await this.driver.keyboard.press(combo);
      }),
      scrollAction((param, { signal }) => this.#scroll(param, signal), { unit: "CSS pixels" }),
      action("Navigate", "Open a URL in the current tab.", [
        { name: "url", type: "string", required: true, description: "the URL to open" },
      ], async (param) => {
        const url = readStringParam("Navigate", param, "url", true).trim();
        if (url === "") {
          throw new TypeError(`Cannot run Navigate: 'url' must not be empty: current value is ""`);
        }
        await this.driver.goto(withScheme(url));
      }),
      action("Reload", "Reload the current page.", [], async () => {
        await this.driver.reload();
      }),
      action("GoBack", "Go back to the previous page in the tab's history.", [], async () => {
        await this.driver.goBack();
      }),
      ...gestureActions({
        driver: () => this.driver,
        touch: () => this.#touchInput(),
        pointerMoved: (point) => this.#pointer = point,
      }, this.#touchEnabled),
    ];
  }

  // The current driver's touch input (a browser-wide agent may have switched pages).
  #touchInput(): PageDriverTouch {
    const touch = this.driver.touch;
    if (!touch) {
      throw new TypeError(
        "Cannot send touch input: this page's driver has none (Chromium-based browsers only)",
      );
    }
    return touch;
  }

  // With touch enabled, makes each page see a touch screen before it is looked at or acted on.
  async #enableTouch(): Promise<void> {
    if (this.#touchEnabled && !this.#destroyed) await this.#touchInput().enable();
  }

  // A Tap with files (the planner's, else the call's fileChooserAccept) catches the file chooser
  // the click opens and gives it the files; when none opens, the click is all there is.
  async #tap(param: ActionParams, context: ActionContext): Promise<void> {
    const target = readLocateParam("Tap", param, true);
    const files = readFiles("Tap", param) ?? context.fileChooserAccept;
    if (!files?.length) return await this.#click(target, context.signal);
    if (!this.driver.watchFileChooser) {
      throw new TypeError(
        "Cannot run Tap with files: this page's driver cannot catch file choosers",
      );
    }
    const watch = this.driver.watchFileChooser();
    let chooser: PageFileChooser | undefined;
    try {
      // Chromium applies the interception in the page's renderer, where input events can overtake
      // the command: a round trip proves it applied. The one after the click proves the page
      // handled it, so the wait below does not start while the page is busy.
      await this.#flushDriverEvents();
      await this.#click(target, context.signal);
      await this.#flushDriverEvents();
      chooser = await withinMs(watch.opened, FILE_CHOOSER_WAIT_MS);
    } finally {
      watch.stop();
    }
    if (!chooser) return;
    if (files.length > 1 && !chooser.multiple) {
      throw new Error(
        `Cannot choose ${files.length} files: the file input the tap opened accepts one file (it has no "multiple" attribute). Add "multiple" to the input, or pass one file.`,
      );
    }
    await chooser.setFiles(files);
  }

  async #click(
    target: LocatedElement,
    signal: AbortSignal | undefined,
    options?: { button?: "left" | "right"; clickCount?: number },
  ): Promise<void> {
    signal?.throwIfAborted();
    const [x, y] = target.center;
    await this.driver.mouse.click(x, y, options);
    this.#pointer = [x, y];
  }

  async #input(
    param: ActionParams,
    signal: AbortSignal | undefined,
    overrides: InputActionOptions | undefined,
  ): Promise<void> {
    const typing = typeSettings(overrides, this.#typeDelay, this.#inputStrategy);
    const target = readLocateParam("Input", param, false);
    // 'append' is the deprecated name of 'typeOnly' (spec 4.7); it is accepted, not advertised.
    const mode = readEnumParam("Input", param, "mode", [...INPUT_MODES, "append"], "replace");
    const value = mode === "clear"
      ? readStringParam("Input", param, "value", false)
      : readStringParam("Input", param, "value", true);
    if (target) await this.#click(target, signal);
    signal?.throwIfAborted();
    if (mode === "typeOnly" || mode === "append") {
      if (!(await this.#editField("caretToEnd"))) await this.driver.keyboard.press("End");
      await this.#type(value ?? "", typing, signal);
      return;
    }
    await this.#selectAllInField(signal);
    if (mode === "clear" || value === "") {
      await this.driver.keyboard.press("Backspace");
    } else {
      // Typing over a selection replaces it, with the key and input events a user makes.
      await this.#type(value ?? "", typing, signal);
    }
  }

  async #type(
    text: string,
    { delay, strategy }: TypeSettings,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (text === "") return;
    signal?.throwIfAborted();
    const keyboard = this.driver.keyboard;
    if (strategy === "bulk") return await keyboard.insertText(text);
    if (strategy === "legacy") {
      return await keyboard.type(text, delay > 0 ? { delayMs: delay } : undefined);
    }
    // 'sequential': one code point per call, so a surrogate pair (an emoji) stays whole.
    let first = true;
    for (const codePoint of text) {
      if (!first && delay > 0) await sleep(delay, signal);
      first = false;
      await keyboard.type(codePoint);
    }
  }

  async #selectAllInField(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (await this.#editField("selectAll")) return;
    // Not a text field the page script knows: the platform's select-all shortcut.
    const mac = await this.driver.evaluate<boolean>(
      "/Mac|iPhone|iPad/.test(navigator.platform)",
    ).catch(() => false);
    await this.driver.keyboard.press(mac ? "Meta+A" : "Control+A");
  }

  async #editField(edit: FieldEdit): Promise<boolean> {
    return await this.driver.evaluate(editFocusedField, edit);
  }

  async #scroll(param: ActionParams, signal: AbortSignal | undefined): Promise<void> {
    const target = readLocateParam("Scroll", param, false);
    const direction = readEnumParam("Scroll", param, "direction", SCROLL_DIRECTIONS, "down");
    const scrollType = readEnumParam("Scroll", param, "scrollType", SCROLL_TYPES, "singleAction");
    const distance = readPositiveNumberParam("Scroll", param, "distance");

    let deltaX = 0;
    let deltaY = 0;
    switch (scrollType) {
      case "scrollToBottom":
        deltaY = SCROLL_TO_END_DELTA;
        break;
      case "scrollToTop":
        deltaY = -SCROLL_TO_END_DELTA;
        break;
      case "scrollToRight":
        deltaX = SCROLL_TO_END_DELTA;
        break;
      case "scrollToLeft":
        deltaX = -SCROLL_TO_END_DELTA;
        break;
      case "singleAction": {
        const vertical = direction === "down" || direction === "up";
        let step = distance;
        if (step === undefined) {
          const viewport = await this.driver.viewport();
          step = Math.round((vertical ? viewport.height : viewport.width) * SCROLL_SCREEN_FRACTION);
        }
        const sign = direction === "down" || direction === "right" ? 1 : -1;
        if (vertical) deltaY = sign * step;
        else deltaX = sign * step;
        break;
      }
    }

    // The wheel scrolls whatever is under the pointer: the element when given, else wherever
    // this device left the pointer (the driver's own position before any pointer action).
    const at = target?.center ?? this.#pointer;
    signal?.throwIfAborted();
    if (at) {
      await this.driver.mouse.move(at[0], at[1]);
      this.#pointer = [at[0], at[1]];
    }
    await this.driver.mouse.wheel(deltaX, deltaY);
    await this.driver.evaluate(waitForScrollToSettle, SCROLL_SETTLE_MAX_MS).catch(() => {
      // The page navigated meanwhile: there is no scroll left to wait for.
    });
  }
}

// The `files` of a Tap: a path or a list of paths; undefined when absent.
function readFiles(action: string, param: ActionParams): readonly string[] | undefined {
  const value = param.files;
  if (value === undefined || value === null) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((f) => typeof f === "string" && f !== "")) {
    throw new TypeError(
      `Cannot run ${action}: 'files' must be a file path or an array of file paths: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return list;
}

// How one Input action types: the effective delay (ms) and strategy.
// `work`'s value when it settles within `ms`, else undefined; never rejects (`work` must not).
async function withinMs<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) =>
    timer = setTimeout(() => resolve(undefined), ms)
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function checkMs(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `Cannot create WebPageDevice as '${name}' must be a finite number >= 0: current value is ${value}`,
    );
  }
  return value;
}

// Models often write "example.com" or "localhost:3000"; drivers reject URLs without a scheme.
function withScheme(url: string): string {
  if (/^[\w.-]+:\d+(?:[/?#]|$)/.test(url)) return `http://${url}`;
  return /^[a-z][a-z\d+.-]*:/i.test(url) ? url : `https://${url}`;
}
