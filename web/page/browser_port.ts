/**
 * The port between a browser-wide agent and a browser driver library: the pages of a browser or
 * browser context, opening one, hearing about new ones, and the {@link PageDriver} of each.
 *
 * Each driver (DriverA in `driver_a/`, DriverB in `driver_b/`) implements it over its own
 * browser or context object; nothing here names a driver or uses its types.
 *
 * @module
 */

import type { PageDriver, Unsubscribe } from "./page_driver.ts";

/**
 * What a browser-wide agent needs from a driver, over one browser or browser context the user
 * owns: nothing here closes a page, the context or the browser.
 *
 * @typeParam P the driver's page type.
 */
export interface BrowserPort<P> {
  /** The open pages of the bound browser (all its contexts) or context. */
  pages(): Promise<P[]>;
  /**
   * Opens a new page: in the bound context, or for a browser in `opener`'s context (in a new
   * context when there is no opener).
   */
  newPage(opener: P | undefined): Promise<P>;
  /**
   * Calls `listener` with each page opened from now on in the bound browser or context (by
   * {@link BrowserPort.newPage}, a link, `window.open`, the user), once the page can be driven.
   */
  onNewPage(listener: (page: P) => void): Unsubscribe;
  /**
   * Brings `page` to the front, as the browser's visible tab: a background tab may render no
   * frames, and screenshots of it can stall.
   */
  bringToFront(page: P): Promise<void>;
  /** A new {@link PageDriver} over `page`. */
  driver(page: P): PageDriver;
}
