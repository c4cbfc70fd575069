/**
 * DriverB's (playwright-core's) own types that the SDK's public signatures take, under the SDK's
 * names, so that its API pages link them. They are the driver's types unchanged.
 *
 * @module
 */

import type { Browser, BrowserContext, Page } from "playwright-core";

/** A DriverB page: playwright-core's `Page`. */
export type DriverBPage = Page;
/** A DriverB browser: playwright-core's `Browser`. */
export type DriverBBrowser = Browser;
/** A DriverB browser context: playwright-core's `BrowserContext`. */
export type DriverBBrowserContext = BrowserContext;
