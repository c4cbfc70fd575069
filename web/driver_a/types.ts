/**
 * DriverA's (puppeteer-core's) own types that the SDK's public signatures take, under the SDK's
 * names, so that its API pages link them. They are the driver's types unchanged.
 *
 * @module
 */

import type { Browser, BrowserContext, Page } from "puppeteer-core";

/** A DriverA page: puppeteer-core's `Page`. */
export type DriverAPage = Page;
/** A DriverA browser: puppeteer-core's `Browser`. */
export type DriverABrowser = Browser;
/** A DriverA browser context: puppeteer-core's `BrowserContext`. */
export type DriverABrowserContext = BrowserContext;
