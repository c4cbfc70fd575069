/**
 * The page agents: an {@link Agent} over a {@link WebPageDevice}, one class per driver library,
 * each only choosing its {@link PageDriver} (spec 4.7). No branches on the driver's name.
 *
 * @module
 */

import {
  Agent,
  checkInputOptions,
  InvalidStateError,
  SdkRangeError,
  SdkTypeError,
} from "@sdk/core";
import type { AgentOptions } from "@sdk/core";
import type { DriverAPage } from "../driver_a/types.ts";
import type { DriverBPage as Page } from "../driver_b/types.ts";
import { DriverAPageDriver } from "../driver_a/puppeteer_driver.ts";
import { DriverBPageDriver } from "../driver_b/playwright_driver.ts";
import type { PageDriver } from "../page/page_driver.ts";
import { WebPageDevice } from "../page/web_device.ts";
import type { WebPageDeviceOptions } from "../page/web_device.ts";
import { checkNativeDialogs } from "../page/native_dialogs.ts";

/** Options of a page agent: the shared agent options (spec 2.1) plus the web ones (spec 4.7). */
export interface WebPageAgentOptions extends AgentOptions, WebPageDeviceOptions {}

/** Checks the web options of a page agent (private to the package). */
export function checkWebOptions(options: WebPageAgentOptions): void {
  checkInputOptions(options);
  checkNativeDialogs(options.nativeDialogs);
  for (const key of ["waitForNavigationTimeout", "waitForNetworkIdleTimeout"] as const) {
    const v = options[key];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
      throw new SdkRangeError(`'${key}' must be a finite number of ms >= 0: current value is ${v}`);
    }
  }
}

/**
 * An agent bound to one browser page through a {@link PageDriver}. Driver-specific agents
 * ({@link DriverAPageAgent}, {@link DriverBPageAgent}) only pick the driver. `destroy()` never
 * closes the page.
 */
export class WebPageAgent extends Agent<WebPageDevice> {
  #destroyed = false;

  /**
   * Creates the agent over a page driver.
   *
   * @throws {SdkRangeError} for negative or non-finite timeouts or `keyboardTypeDelay`.
   * @throws {SdkTypeError} for a malformed custom action or one reusing an action's name,
   * `enableTouchEventsInActionSpace` with a driver that has no touch input, or a `nativeDialogs`
   * that is neither `"dismiss"`, `"accept"` nor a function.
   */
  constructor(driver: PageDriver, options: WebPageAgentOptions = {}) {
    checkWebOptions(options);
    super(
      new WebPageDevice(driver, {
        waitForNavigationTimeout: options.waitForNavigationTimeout,
        waitForNetworkIdleTimeout: options.waitForNetworkIdleTimeout,
        keyboardTypeDelay: options.keyboardTypeDelay,
        inputStrategy: options.inputStrategy,
        enableTouchEventsInActionSpace: options.enableTouchEventsInActionSpace,
        forceSameTabNavigation: options.forceSameTabNavigation,
        forceChromeSelectRendering: options.forceChromeSelectRendering,
        customActions: options.customActions,
        nativeDialogs: options.nativeDialogs,
      }),
      options,
    );
  }

  /**
   * Runs `script` in the current page's main frame and resolves with its result (spec 4.5; web
   * agents only). The result must be serialisable by the driver; a promise is awaited. Not
   * recorded in the report.
   *
   * @example
   * ```ts ignore
   * const title = await agent.evaluateJavaScript("document.title");
   * ```
   *
   * @throws {SdkTypeError} when `script` is not a string.
   * @throws {ConnectionError} (`lost`) after `destroy()`, or when the page or its browser is gone.
   * @throws the driver's error when the script throws.
   */
  async evaluateJavaScript(script: string): Promise<unknown> {
    if (typeof script !== "string") {
      throw new SdkTypeError(
        `evaluateJavaScript needs a string of JavaScript: current value is ${typeof script}`,
      );
    }
    if (this.#destroyed) {
      throw new InvalidStateError(
        "evaluateJavaScript: this agent was destroyed; create a new agent",
      );
    }
    return await this.interface.driver.evaluate<unknown>(script);
  }

  /** Disposes the agent (spec 3.1). Never closes the page. */
  override async destroy(): Promise<void> {
    this.#destroyed = true;
    await super.destroy();
  }
}

/**
 * An agent bound to one DriverA (`puppeteer-core`) page. The page stays the caller's: the agent
 * never closes it.
 *
 * Screenshots are taken at the page's device pixel ratio (physical pixels); actions use CSS
 * pixels.
 *
 * @example
 * ```ts ignore
 * import { launch } from "puppeteer-core";
 * import { DriverAPageAgent } from "@sdk/web";
 *
 * const browser = await launch({ executablePath: "/usr/bin/chromium" });
 * const page = await browser.newPage();
 * await page.goto("http://127.0.0.1:8000/login.html");
 * const agent = new DriverAPageAgent(page); // model from SDK_MODEL_* variables
 * await agent.aiAct("sign in as alice with password secret");
 * await agent.destroy();
 * ```
 */
export class DriverAPageAgent extends WebPageAgent {
  /** The page this agent drives. */
  readonly page: DriverAPage;

  /**
   * Creates the agent over a `puppeteer-core` page.
   *
   * @throws {SdkRangeError} for invalid timeouts or input options.
   */
  constructor(page: DriverAPage, options: WebPageAgentOptions = {}) {
    super(new DriverAPageDriver(page), options);
    this.page = page;
  }
}

/** Alias of {@link DriverAPageAgent} (spec 4.1.2). */
export const DriverAAgent: typeof DriverAPageAgent = DriverAPageAgent;
/** Alias of {@link DriverAPageAgent} (spec 9.2). */
export type DriverAAgent = DriverAPageAgent;

/**
 * An agent bound to one DriverB (`playwright-core`) page. The page stays the caller's: the agent
 * never closes it.
 *
 * Screenshots are taken at the page's device pixel ratio (physical pixels); actions use CSS
 * pixels.
 *
 * @example
 * ```ts ignore
 * import { chromium } from "playwright-core";
 * import { DriverBPageAgent } from "@sdk/web";
 *
 * const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
 * const page = await browser.newPage();
 * await page.goto("http://127.0.0.1:8000/login.html");
 * const agent = new DriverBPageAgent(page); // model from SDK_MODEL_* variables
 * await agent.aiAct("sign in as alice with password secret");
 * await agent.destroy();
 * ```
 */
export class DriverBPageAgent extends WebPageAgent {
  /** The page this agent drives. */
  readonly page: Page;

  /**
   * Creates the agent over a `playwright-core` page.
   *
   * @throws {SdkRangeError} for invalid timeouts or input options.
   */
  constructor(page: Page, options: WebPageAgentOptions = {}) {
    super(new DriverBPageDriver(page), options);
    this.page = page;
  }
}

/** Alias of {@link DriverBPageAgent} (spec 4.1.2). */
export const DriverBAgent: typeof DriverBPageAgent = DriverBPageAgent;
/** Alias of {@link DriverBPageAgent} (spec 9.2). */
export type DriverBAgent = DriverBPageAgent;
