/**
 * {@link PageDriver} over a DriverB (`playwright-core`) page.
 *
 * Only types come from `playwright-core`: the user passes their own `Page`, so this package never
 * loads the driver library itself (it is a peer dependency).
 *
 * @module
 */

import type { Dialog, FileChooser, Request } from "playwright-core";
import type { DriverBPage as Page } from "./types.ts";
import type {
  ButtonOptions,
  ClickOptions,
  DriverRequest,
  FileChooserWatch,
  NativeDialogType,
  PageDialog,
  PageDriver,
  PageDriverKeyboard,
  PageDriverMouse,
  PageDriverScreencast,
  PageDriverTouch,
  PageFileChooser,
  ScreencastOptions,
  TypeOptions,
  Unsubscribe,
  ViewportInfo,
} from "../page/page_driver.ts";
import type { ScreenshotEncoding } from "../_core.ts";
import { guardPageCalls, lostConnectionError, type PageConnection } from "../page/_connection.ts";
import { navigationError } from "../page/navigation.ts";
import { pressCombo } from "../page/_press_combo.ts";
import { type ProtocolSession, protocolTouch } from "../page/_touch.ts";
import { protocolScreencast, type ScreencastSession } from "../page/_screencast.ts";

/**
 * A {@link PageDriver} over a DriverB `Page`. It never closes the page.
 *
 * @example Drive a page through the port
 * ```ts ignore
 * import { chromium } from "playwright-core";
 * import { DriverBPageDriver } from "@sdk/web";
 *
 * const browser = await chromium.launch();
 * const page = await browser.newPage();
 * const driver = new DriverBPageDriver(page);
 * await driver.goto("https://example.com");
 * const png = await driver.screenshot(); // physical pixels
 * await browser.close();
 * ```
 */
export class DriverBPageDriver implements PageDriver {
  /** The wrapped page. */
  readonly page: Page;
  /** Mouse input; CSS pixels. */
  readonly mouse: PageDriverMouse;
  /** Keyboard input into the focused element. */
  readonly keyboard: PageDriverKeyboard;
  /** Touch input over a DevTools-protocol session (Chromium only); see {@link PageDriverTouch}. */
  readonly touch?: PageDriverTouch;
  /**
   * The DevTools-protocol screencast (Chromium only; absent on other browsers); see
   * {@link PageDriver.startScreencast}.
   */
  readonly startScreencast?: (options: ScreencastOptions) => Promise<PageDriverScreencast>;

  // The same Request object is passed to 'request' and to 'requestfinished'/'requestfailed', so a
  // weak map keeps one DriverRequest (one id) per request without holding finished ones alive.
  #requests = new WeakMap<Request, DriverRequest>();
  #nextId = 0;

  /**
   * Wraps the user's page. Adds no listener until one of the `on...` methods is called.
   *
   * @param page the user's page; it stays theirs (never closed here).
   */
  constructor(page: Page) {
    this.page = page;
    const state = () => this.#connection();
    const endpoint = () => this.#endpoint();
    this.mouse = guardPageCalls(
      {
        move: (x: number, y: number) => page.mouse.move(x, y),
        click: (x: number, y: number, options?: ClickOptions) =>
          page.mouse.click(x, y, {
            button: options?.button ?? "left",
            clickCount: options?.clickCount ?? 1,
          }),
        down: (options?: ButtonOptions) => page.mouse.down({ button: options?.button ?? "left" }),
        up: (options?: ButtonOptions) => page.mouse.up({ button: options?.button ?? "left" }),
        wheel: (deltaX: number, deltaY: number) => page.mouse.wheel(deltaX, deltaY),
      },
      state,
      endpoint,
    );
    this.keyboard = guardPageCalls(
      {
        type: (text: string, options?: TypeOptions) =>
          page.keyboard.type(text, options?.delayMs ? { delay: options.delayMs } : undefined),
        // Not DriverB's own combination parsing: it leaves the modifiers down when the key is
        // unknown.
        press: (combo: string) => pressCombo(page.keyboard, combo),
        insertText: (text: string) => page.keyboard.insertText(text),
      },
      state,
      endpoint,
    );
    // Only Chromium speaks the DevTools protocol. A persistent context has no browser() to ask:
    // opening the session on first use tells then.
    const browserName = page.context().browser()?.browserType().name();
    const chromium = browserName === undefined || browserName === "chromium";
    this.touch = chromium
      ? protocolTouch(async () =>
        (await page.context().newCDPSession(page)) as unknown as ProtocolSession
      )
      : undefined;
    this.startScreencast = chromium
      ? (options: ScreencastOptions) =>
        protocolScreencast(
          async () => (await page.context().newCDPSession(page)) as unknown as ScreencastSession,
          options,
        )
      : undefined;
  }

  /** PNG or JPEG of the viewport in physical pixels (CSS size x device pixel ratio). */
  screenshot(encoding?: ScreenshotEncoding): Promise<Uint8Array> {
    const type = encoding?.format ?? "png";
    return this.#retryAcrossNavigation(() =>
      // caret "initial": hiding the caret costs ~16 ms a shot, and the model may see where focus is.
      this.page.screenshot({
        type,
        quality: type === "jpeg" ? encoding?.quality : undefined,
        fullPage: false,
        scale: "device",
        caret: "initial",
      })
    );
  }

  /**
   * CSS viewport size and device pixel ratio. The emulated viewport is used when the page has
   * one (it is what screenshots cover), else the window's inner size.
   */
  async viewport(): Promise<ViewportInfo> {
    const probe = await this.#retryAcrossNavigation(() =>
      this.page.evaluate<ViewportInfo>(
        "({ width: innerWidth, height: innerHeight, dpr: devicePixelRatio })",
      )
    );
    const emulated = this.page.viewportSize();
    return emulated ? { width: emulated.width, height: emulated.height, dpr: probe.dpr } : probe;
  }

  /** Runs a script or a self-contained function in the main frame. */
  evaluate<R>(script: string | (() => R | Promise<R>)): Promise<R>;
  /** Runs `fn(arg)` in the main frame; `arg` must be serialisable. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  async evaluate<R, A>(script: string | ((arg: A) => R | Promise<R>), arg?: A): Promise<R> {
    // The port's types are narrower than DriverB's (no handles), so the call is widened here.
    const evaluate = this.page.evaluate.bind(this.page) as (
      script: string | ((arg: A) => R | Promise<R>),
      arg?: A,
    ) => Promise<R>;
    return await evaluate(script, arg);
  }

  /** Runs `script` in every later document of the page (`addInitScript`). */
  async addInitScript(script: () => void): Promise<() => Promise<void>> {
    const added = await this.page.addInitScript(script);
    return async () => {
      if (this.page.isClosed()) return;
      await added.dispose().catch(() => {
        // Closed meanwhile: nothing left to remove.
      });
    };
  }

  /** The main frame's URL. */
  url(): Promise<string> {
    return Promise.resolve(this.page.url());
  }

  // These wait for DOMContentLoaded, not just the commit: between the two, Chromium may still
  // be swapping the page's renderer, and the next screenshot or history call can fail ("Not
  // attached to an active page"). The device waits for `load` itself, within its own timeout.

  /**
   * Navigates and resolves once the new document is parsed (DOMContentLoaded).
   *
   * @throws {NavigationError} when the page does not open (the URL, the browser's reason, what
   * to check); a `ConnectionError` (`lost`) when the page or the browser went away.
   */
  async goto(url: string): Promise<void> {
    try {
      await this.page.goto(url, { waitUntil: "domcontentloaded" });
    } catch (error) {
      const lost = lostConnectionError(error, this.#connection(), this.#endpoint());
      throw lost !== error ? lost : navigationError(url, error);
    }
  }

  /** Reloads and resolves once the new document is parsed. */
  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: "domcontentloaded" });
  }

  /** Goes back one history entry (no-op without one); resolves once the document is parsed. */
  async goBack(): Promise<void> {
    await this.page.goBack({ waitUntil: "domcontentloaded" });
  }

  /** Listens for requests sent by the page's frames. */
  onRequestStart(listener: (request: DriverRequest) => void): Unsubscribe {
    const handler = (request: Request) => listener(this.#toDriverRequest(request));
    this.page.on("request", handler);
    return once(() => this.page.off("request", handler));
  }

  /** Listens for requests that finished or failed. */
  onRequestEnd(listener: (request: DriverRequest, failed: boolean) => void): Unsubscribe {
    const finished = (request: Request) => listener(this.#toDriverRequest(request), false);
    const failed = (request: Request) => listener(this.#toDriverRequest(request), true);
    this.page.on("requestfinished", finished);
    this.page.on("requestfailed", failed);
    return once(() => {
      this.page.off("requestfinished", finished);
      this.page.off("requestfailed", failed);
    });
  }

  /** Listens for the top-level document's `load` event. */
  onMainFrameLoad(listener: () => void): Unsubscribe {
    const handler = () => listener();
    this.page.on("load", handler);
    return once(() => this.page.off("load", handler));
  }

  /**
   * Hands the page's native dialogs to `listener` (DriverB's `dialog` event); see
   * {@link PageDriver.onDialog}. Without a listener DriverB dismisses every dialog itself.
   */
  onDialog(listener: (dialog: PageDialog) => void): Unsubscribe {
    const handler = (dialog: Dialog) =>
      listener({
        type: dialog.type() as NativeDialogType,
        message: dialog.message(),
        defaultValue: dialog.defaultValue(),
        accept: (promptText?: string) => dialog.accept(promptText),
        dismiss: () => dialog.dismiss(),
      });
    this.page.on("dialog", handler);
    return once(() => this.page.off("dialog", handler));
  }

  /**
   * Catches file choosers through DriverB's `filechooser` event, which makes the page hand
   * choosers to the listener instead of showing them; see {@link PageDriver.watchFileChooser}.
   */
  watchFileChooser(): FileChooserWatch {
    let settle!: (chooser: PageFileChooser | undefined) => void;
    const opened = new Promise<PageFileChooser | undefined>((resolve) => settle = resolve);
    const listener = (chooser: FileChooser) =>
      settle({
        multiple: chooser.isMultiple(),
        setFiles: (paths: readonly string[]) => chooser.setFiles([...paths]),
      });
    this.page.on("filechooser", listener);
    return {
      opened,
      stop: () => {
        this.page.off("filechooser", listener);
        settle(undefined);
      },
    };
  }

  #toDriverRequest(request: Request): DriverRequest {
    let known = this.#requests.get(request);
    if (!known) {
      known = {
        id: String(++this.#nextId),
        url: request.url(),
        isMainFrameNavigation: isMainFrameNavigation(request),
      };
      this.#requests.set(request, known);
    }
    return known;
  }

  /** What a lost connection names: the page's last URL. */
  #endpoint(): string {
    return this.page.url();
  }

  /** Whether the page is open and its browser connected. */
  #connection(): PageConnection {
    const browser = this.page.context().browser();
    if (browser && !browser.isConnected()) return "browser-disconnected";
    return this.page.isClosed() ? "page-closed" : "connected";
  }

  // A read-only call may hit the moment a navigation swaps the document ("execution context
  // was destroyed", "unable to capture screenshot"); it is safe to wait for the new document
  // and ask again.
  async #retryAcrossNavigation<R>(read: () => Promise<R>): Promise<R> {
    for (let attempt = 1;; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (attempt >= 3 || this.#connection() !== "connected") {
          throw lostConnectionError(error, this.#connection(), this.#endpoint());
        }
        await this.page.waitForLoadState("domcontentloaded").catch(() => {});
      }
    }
  }
}

function isMainFrameNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    // Service-worker requests have no frame.
    return false;
  }
}

function once(fn: () => void): Unsubscribe {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
