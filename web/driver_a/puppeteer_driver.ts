/**
 * {@link PageDriver} over a DriverA (`puppeteer-core`) page.
 *
 * Only types come from `puppeteer-core`: the user passes their own `Page`, so this package never
 * loads the driver library itself (it is a peer dependency).
 *
 * @module
 */

import type { Dialog, FileChooser, HTTPRequest, KeyInput } from "puppeteer-core";
import type { DriverAPage as Page } from "./types.ts";
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
 * A {@link PageDriver} over a DriverA `Page`. It never closes the page.
 *
 * @example Drive a page through the port
 * ```ts ignore
 * import { launch } from "puppeteer-core";
 * import { DriverAPageDriver } from "@sdk/web";
 *
 * const browser = await launch({ executablePath: "/usr/bin/chromium" });
 * const page = await browser.newPage();
 * const driver = new DriverAPageDriver(page);
 * await driver.goto("https://example.com");
 * const png = await driver.screenshot(); // physical pixels
 * await browser.close();
 * ```
 */
export class DriverAPageDriver implements PageDriver {
  /** The wrapped page. */
  readonly page: Page;
  /** Mouse input; CSS pixels. */
  readonly mouse: PageDriverMouse;
  /** Keyboard input into the focused element. */
  readonly keyboard: PageDriverKeyboard;
  /** Touch input over a DevTools-protocol session (Chromium only); see {@link PageDriverTouch}. */
  readonly touch?: PageDriverTouch;

  // The same HTTPRequest object is passed to 'request' and to 'requestfinished'/'requestfailed',
  // so a weak map keeps one DriverRequest (one id) per request without holding finished ones.
  #requests = new WeakMap<HTTPRequest, DriverRequest>();
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
        // DriverA's `count` presses n times with clickCount 1..n, so 2 fires two clicks and one
        // dblclick, as the port asks.
        click: (x: number, y: number, options?: ClickOptions) =>
          page.mouse.click(x, y, {
            button: options?.button ?? "left",
            count: options?.clickCount ?? 1,
          }),
        down: (options?: ButtonOptions) => page.mouse.down({ button: options?.button ?? "left" }),
        up: (options?: ButtonOptions) => page.mouse.up({ button: options?.button ?? "left" }),
        wheel: (deltaX: number, deltaY: number) => page.mouse.wheel({ deltaX, deltaY }),
      },
      state,
      endpoint,
    );
    this.keyboard = guardPageCalls(
      {
        type: (text: string, options?: TypeOptions) =>
          page.keyboard.type(text, options?.delayMs ? { delay: options.delayMs } : undefined),
        // DriverA has no combination syntax.
        press: (combo: string) =>
          pressCombo({
            down: (key) => page.keyboard.down(key as KeyInput),
            up: (key) => page.keyboard.up(key as KeyInput),
            press: (key) => page.keyboard.press(key as KeyInput),
          }, combo),
        insertText: (text: string) => page.keyboard.sendCharacter(text),
      },
      state,
      endpoint,
    );
    // Opened on first use: a browser without the protocol (Firefox over WebDriver BiDi) fails
    // there, with an error saying touch needs Chromium.
    this.touch = protocolTouch(async () =>
      (await page.createCDPSession()) as unknown as ProtocolSession
    );
  }

  /** PNG or JPEG of the viewport in physical pixels (CSS size x device pixel ratio). */
  async screenshot(encoding?: ScreenshotEncoding): Promise<Uint8Array> {
    const type = encoding?.format ?? "png";
    return await this.#retryAcrossNavigation(() =>
      this.page.screenshot({
        type,
        quality: type === "jpeg" ? encoding?.quality : undefined,
        captureBeyondViewport: false,
      })
    );
  }

  /**
   * CSS viewport size and device pixel ratio. The emulated viewport is used when the page has
   * one (it is what screenshots cover), else the window's inner size.
   */
  async viewport(): Promise<ViewportInfo> {
    const probe = await this.#retryAcrossNavigation(() =>
      this.page.evaluate(
        "({ width: innerWidth, height: innerHeight, dpr: devicePixelRatio })",
      ) as Promise<ViewportInfo>
    );
    const emulated = this.page.viewport();
    return emulated ? { width: emulated.width, height: emulated.height, dpr: probe.dpr } : probe;
  }

  /** Runs a script or a self-contained function in the main frame. */
  evaluate<R>(script: string | (() => R | Promise<R>)): Promise<R>;
  /** Runs `fn(arg)` in the main frame; `arg` must be serialisable. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  async evaluate<R, A>(script: string | ((arg: A) => R | Promise<R>), arg?: A): Promise<R> {
    // The port's types are narrower than DriverA's (no handles), so the call is widened here.
    // DriverA refuses a string script with arguments, and gives a function undefined either way.
    const evaluate = this.page.evaluate.bind(this.page) as (
      script: string | ((arg: A) => R | Promise<R>),
      ...args: A[]
    ) => Promise<R>;
    return await (arg === undefined ? evaluate(script) : evaluate(script, arg));
  }

  /** Runs `script` in every later document of the page (`evaluateOnNewDocument`). */
  async addInitScript(script: () => void): Promise<() => Promise<void>> {
    const { identifier } = await this.page.evaluateOnNewDocument(script);
    return async () => {
      if (this.page.isClosed()) return;
      await this.page.removeScriptToEvaluateOnNewDocument(identifier).catch(() => {
        // Closed meanwhile: nothing left to remove.
      });
    };
  }

  /** The main frame's URL. */
  url(): Promise<string> {
    return Promise.resolve(this.page.url());
  }

  // These wait for DOMContentLoaded, not just the commit, like DriverB's: the device waits for
  // `load` itself, within its own timeout.

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
    try {
      await this.page.goBack({ waitUntil: "domcontentloaded" });
    } catch (error) {
      // DriverA throws where DriverB resolves with null: at the first history entry.
      if (!/history entry to navigate to not found/i.test((error as Error).message)) throw error;
    }
  }

  /** Listens for requests sent by the page's frames. */
  onRequestStart(listener: (request: DriverRequest) => void): Unsubscribe {
    const handler = (request: HTTPRequest) => listener(this.#toDriverRequest(request));
    this.page.on("request", handler);
    return once(() => this.page.off("request", handler));
  }

  /** Listens for requests that finished (a redirect hop included) or failed. */
  onRequestEnd(listener: (request: DriverRequest, failed: boolean) => void): Unsubscribe {
    const finished = (request: HTTPRequest) => listener(this.#toDriverRequest(request), false);
    const failed = (request: HTTPRequest) => listener(this.#toDriverRequest(request), true);
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
   * Hands the page's native dialogs to `listener` (DriverA's `dialog` event); see
   * {@link PageDriver.onDialog}. Without a listener DriverA leaves a dialog open, and the page
   * blocked.
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
   * The DevTools-protocol screencast, on a protocol session of its own; see
   * {@link PageDriver.startScreencast}. Fails on a browser without the protocol.
   */
  startScreencast(options: ScreencastOptions): Promise<PageDriverScreencast> {
    return protocolScreencast(
      async () => (await this.page.createCDPSession()) as unknown as ScreencastSession,
      options,
    );
  }

  /**
   * Catches file choosers through DriverA's `waitForFileChooser`; see
   * {@link PageDriver.watchFileChooser}. Once armed, the page keeps handing choosers to DriverA,
   * which drops those nobody waits for: later choosers are ignored, not shown.
   */
  watchFileChooser(): FileChooserWatch {
    const stop = new AbortController();
    const opened = this.page.waitForFileChooser({ timeout: 0, signal: stop.signal }).then(
      (chooser: FileChooser): PageFileChooser => ({
        multiple: chooser.isMultiple(),
        setFiles: (paths: readonly string[]) => chooser.accept([...paths]),
      }),
      () => undefined,
    );
    return { opened, stop: () => stop.abort() };
  }

  #toDriverRequest(request: HTTPRequest): DriverRequest {
    let known = this.#requests.get(request);
    if (!known) {
      known = {
        id: String(++this.#nextId),
        url: request.url(),
        isMainFrameNavigation: request.isNavigationRequest() &&
          request.frame() === this.page.mainFrame(),
      };
      this.#requests.set(request, known);
    }
    return known;
  }

  /**
   * What a lost connection names: the browser's WebSocket endpoint without its path and query
   * (a hosted service puts its token there), else the page's last URL.
   */
  #endpoint(): string {
    try {
      const ws = new URL(this.page.browser().wsEndpoint());
      return `${ws.protocol}//${ws.host}`;
    } catch {
      return this.page.url();
    }
  }

  /** Whether the page is open and its browser connected. */
  #connection(): PageConnection {
    if (!this.page.browser().connected) return "browser-disconnected";
    return this.page.isClosed() ? "page-closed" : "connected";
  }

  // A read-only call may hit the moment a navigation swaps the document ("execution context
  // was destroyed"); it is safe to wait a moment for the new document and ask again.
  async #retryAcrossNavigation<R>(read: () => Promise<R>): Promise<R> {
    for (let attempt = 1;; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (attempt >= 3 || this.#connection() !== "connected") {
          throw lostConnectionError(error, this.#connection(), this.#endpoint());
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
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
