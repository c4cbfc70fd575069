/**
 * The browser-wide agents (spec 4.7): an agent bound to a browser or a browser context that
 * drives one active page at a time, and can open, wait for and switch pages.
 *
 * The logic is driver-neutral ({@link WebBrowserAgent} over a {@link BrowserPort}); the DriverA
 * and DriverB classes only pick the port. No branches on the driver's name.
 *
 * @module
 */

import type {
  DriverBBrowser as Browser,
  DriverBBrowserContext as BrowserContext,
  DriverBPage as Page,
} from "../driver_b/types.ts";
import type { DriverABrowser, DriverABrowserContext, DriverAPage } from "../driver_a/types.ts";
import { DriverABrowserPort } from "../driver_a/puppeteer_browser.ts";
import { DriverBBrowserPort } from "../driver_b/playwright_browser.ts";
import type { BrowserPort } from "../page/browser_port.ts";
import type { PageDriver, Unsubscribe } from "../page/page_driver.ts";
import { checkWebOptions, WebPageAgent, type WebPageAgentOptions } from "./page_agent.ts";
import { InvalidStateError, SdkRangeError, SdkTypeError, WaitForTimeoutError } from "../_core.ts";

/** Default of {@link WebBrowserAgentOptions.newPageTimeout}, in ms. */
export const DEFAULT_NEW_PAGE_TIMEOUT_MS = 5000;

/** Options of a browser-wide agent: the page agent options plus the browser ones (spec 4.7). */
export interface WebBrowserAgentOptions extends WebPageAgentOptions {
  /** Make each page opened in the browser or context the active page. Default `false`. */
  autoFollowNewPage?: boolean;
  /** Default timeout of {@link WebBrowserAgent.waitForNewPage}, in ms. Default 5000. */
  newPageTimeout?: number;
}

/** Options of a browser-wide agent's `create` factory. */
export interface WebBrowserAgentCreateOptions<P> extends WebBrowserAgentOptions {
  /** The first active page. Default: the first open page, else a new page. */
  initialPage?: P;
}

/** Options of {@link WebBrowserAgent.waitForNewPage}. */
export interface WaitForNewPageOptions {
  /** Longest wait in ms once `action` has finished. Default: the agent's `newPageTimeout`. */
  timeout?: number;
}

function checkBrowserOptions(options: WebBrowserAgentOptions): void {
  checkWebOptions(options);
  const follow = options.autoFollowNewPage;
  if (follow !== undefined && typeof follow !== "boolean") {
    throw new SdkTypeError(
      `'autoFollowNewPage' must be a boolean: current value is ${JSON.stringify(follow)}`,
    );
  }
  checkTimeout("newPageTimeout", options.newPageTimeout);
}

function checkTimeout(name: string, value: number | undefined): void {
  if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0)) {
    throw new SdkRangeError(
      `'${name}' must be a finite number of ms >= 0: current value is ${value}`,
    );
  }
}

/**
 * The first active page of a `create` factory: `initialPage`, else the first open page, else a
 * new page. Checks the options first, so bad options open no page.
 */
async function firstPage<P>(
  port: BrowserPort<P>,
  options: WebBrowserAgentCreateOptions<P>,
): Promise<P> {
  checkBrowserOptions(options);
  if (options.initialPage !== undefined) return options.initialPage;
  const [first] = await port.pages();
  return first ?? await port.newPage(undefined);
}

/**
 * An agent bound to a browser or browser context through a {@link BrowserPort}, acting on one
 * active page. Every `ai*` call and {@link evaluateJavaScript} goes to the active page; one
 * report covers all pages. `destroy()` never closes a page, the context or the browser.
 *
 * @typeParam P the driver's page type.
 */
export class WebBrowserAgent<P extends object> extends WebPageAgent {
  readonly #port: BrowserPort<P>;
  readonly #drivers = new WeakMap<P, PageDriver>();
  readonly #newPageTimeout: number;
  #active: P;
  #stopFollowing: Unsubscribe | undefined;
  #closed = false;

  /**
   * Creates the agent with `page` as the active page, and brings its tab to the front.
   *
   * @throws {SdkRangeError} for invalid timeouts or input options.
   * @throws {SdkTypeError} for a non-boolean `autoFollowNewPage` or `forceSameTabNavigation`.
   */
  constructor(port: BrowserPort<P>, page: P, options: WebBrowserAgentOptions = {}) {
    checkBrowserOptions(options);
    const driver = port.driver(page);
    super(driver, options);
    this.#port = port;
    this.#drivers.set(page, driver);
    this.#active = page;
    this.#newPageTimeout = options.newPageTimeout ?? DEFAULT_NEW_PAGE_TIMEOUT_MS;
    // A background tab may render nothing to screenshot. Requests to one page keep their order,
    // so this lands before the first screenshot.
    port.bringToFront(page).catch(() => {});
    if (options.autoFollowNewPage) {
      this.#stopFollowing = port.onNewPage((opened) => void this.#activate(opened));
    }
  }

  /** The page the agent currently acts on. */
  get activePage(): P {
    return this.#active;
  }

  /** The open pages of the bound browser (all its contexts) or context. */
  async pages(): Promise<P[]> {
    return await this.#port.pages();
  }

  /**
   * Opens a page (in the bound context, or in the active page's context of a browser) and makes
   * it the active page, in front.
   *
   * @throws {ConnectionError} (`lost`) after `destroy()`.
   */
  async newPage(): Promise<P> {
    this.#checkOpen("newPage");
    const page = await this.#port.newPage(this.#active);
    await this.#activate(page);
    return page;
  }

  /**
   * Makes `page` the active page and brings its tab to the front. The previous one stays open.
   *
   * @throws {SdkTypeError} when `page` is not an open page of the bound browser or context.
   * @throws {ConnectionError} (`lost`) after `destroy()`.
   */
  async setActivePage(page: P): Promise<void> {
    this.#checkOpen("setActivePage");
    if (!(await this.#port.pages()).includes(page)) {
      throw new SdkTypeError(
        "setActivePage: the page is not an open page of this agent's browser or context",
      );
    }
    await this.#activate(page);
  }

  /**
   * Waits for a page to open in the bound browser or context, without making it active. Starts
   * listening, then runs `action` (for example a click that opens a tab), then waits up to
   * `options.timeout` (default: `newPageTimeout`) for the first new page.
   *
   * @example
   * ```ts ignore
   * const popup = await agent.waitForNewPage(() => agent.aiTap("the 'open in new tab' link"));
   * await agent.setActivePage(popup);
   * ```
   *
   * @returns the new page.
   * @throws {WaitForTimeoutError} when no page opened within the timeout (naming
   * `newPageTimeout`).
   * @throws `action`'s error when it fails; {ConnectionError} (`lost`) after `destroy()`.
   */
  async waitForNewPage(
    action?: () => unknown,
    options: WaitForNewPageOptions = {},
  ): Promise<P> {
    this.#checkOpen("waitForNewPage");
    checkTimeout("timeout", options.timeout);
    const timeout = options.timeout ?? this.#newPageTimeout;
    let opened!: (page: P) => void;
    const next = new Promise<P>((resolve) => opened = resolve);
    const stop = this.#port.onNewPage((page) => opened(page));
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      if (action) await action();
      return await Promise.race([
        next,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() =>
            reject(
              new WaitForTimeoutError(
                `waitForNewPage: no new page opened within ${timeout} ms (newPageTimeout); pass a longer { timeout } or set the agent's newPageTimeout option`,
              ),
            ), timeout);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      stop();
    }
  }

  /**
   * Disposes the agent (spec 3.1): stops following new pages and finalizes the report. Never
   * closes a page, the context or the browser.
   */
  override async destroy(): Promise<void> {
    this.#closed = true;
    this.#stopFollowing?.();
    this.#stopFollowing = undefined;
    await super.destroy();
  }

  // Switches at once; bringing the tab to the front follows (a closed page cannot be).
  async #activate(page: P): Promise<void> {
    if (this.#closed) return;
    let driver = this.#drivers.get(page);
    if (!driver) {
      driver = this.#port.driver(page);
      this.#drivers.set(page, driver);
    }
    this.#active = page;
    this.interface.setDriver(driver);
    await this.#port.bringToFront(page).catch(() => {});
  }

  #checkOpen(api: string): void {
    if (this.#closed) {
      throw new InvalidStateError(`${api}: this agent was destroyed; create a new agent`);
    }
  }
}

/** Options of {@link DriverABrowserAgent.create}. */
export type DriverABrowserAgentCreateOptions = WebBrowserAgentCreateOptions<DriverAPage>;

/**
 * A browser-wide agent over a DriverA (`puppeteer-core`) browser or browser context. Never
 * closes a page, the context or the browser.
 *
 * @example
 * ```ts ignore
 * import { launch } from "puppeteer-core";
 * import { DriverABrowserAgent } from "@sdk/web";
 *
 * const browser = await launch({ executablePath: "/usr/bin/chromium" });
 * const agent = await DriverABrowserAgent.create(browser, { autoFollowNewPage: true });
 * await agent.activePage.goto("http://127.0.0.1:8000/index.html");
 * await agent.aiTap("the Todo list link");
 * await agent.destroy();
 * ```
 */
export class DriverABrowserAgent extends WebBrowserAgent<DriverAPage> {
  /** The browser or context this agent is bound to. */
  readonly browserOrContext: DriverABrowser | DriverABrowserContext;

  /**
   * Creates the agent with `page` as the active page.
   *
   * @throws {SdkRangeError} / {SdkTypeError} for invalid options.
   */
  constructor(
    browserOrContext: DriverABrowser | DriverABrowserContext,
    page: DriverAPage,
    options: WebBrowserAgentOptions = {},
  ) {
    super(new DriverABrowserPort(browserOrContext), page, options);
    this.browserOrContext = browserOrContext;
  }

  /** Creates the agent on `initialPage`, else the first open page, else a new page. */
  static async create(
    browserOrContext: DriverABrowser | DriverABrowserContext,
    options: DriverABrowserAgentCreateOptions = {},
  ): Promise<DriverABrowserAgent> {
    const { initialPage: _, ...rest } = options;
    const page = await firstPage(new DriverABrowserPort(browserOrContext), options);
    return new DriverABrowserAgent(browserOrContext, page, rest);
  }
}

/** Options of {@link DriverBBrowserAgent.create}. */
export type DriverBBrowserAgentCreateOptions = WebBrowserAgentCreateOptions<Page>;

/**
 * A browser-wide agent over a DriverB (`playwright-core`) browser or browser context. Never
 * closes a page, the context or the browser.
 *
 * @example
 * ```ts ignore
 * import { chromium } from "playwright-core";
 * import { DriverBBrowserAgent } from "@sdk/web";
 *
 * const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
 * const context = await browser.newContext();
 * const agent = await DriverBBrowserAgent.create(context); // opens a page: there is none
 * await agent.activePage.goto("http://127.0.0.1:8000/index.html");
 * const popup = await agent.waitForNewPage(() => agent.activePage.click("a[target=_blank]"));
 * await agent.setActivePage(popup);
 * await agent.destroy();
 * ```
 */
export class DriverBBrowserAgent extends WebBrowserAgent<Page> {
  /** The browser or context this agent is bound to. */
  readonly browserOrContext: Browser | BrowserContext;

  /**
   * Creates the agent with `page` as the active page.
   *
   * @throws {SdkRangeError} / {SdkTypeError} for invalid options.
   */
  constructor(
    browserOrContext: Browser | BrowserContext,
    page: Page,
    options: WebBrowserAgentOptions = {},
  ) {
    super(new DriverBBrowserPort(browserOrContext), page, options);
    this.browserOrContext = browserOrContext;
  }

  /** Creates the agent on `initialPage`, else the first open page, else a new page. */
  static async create(
    browserOrContext: Browser | BrowserContext,
    options: DriverBBrowserAgentCreateOptions = {},
  ): Promise<DriverBBrowserAgent> {
    const { initialPage: _, ...rest } = options;
    const page = await firstPage(new DriverBBrowserPort(browserOrContext), options);
    return new DriverBBrowserAgent(browserOrContext, page, rest);
  }
}
