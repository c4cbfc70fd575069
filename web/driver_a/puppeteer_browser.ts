/**
 * {@link BrowserPort} over a DriverA (`puppeteer-core`) browser or browser context.
 *
 * Only types come from `puppeteer-core` (a peer dependency).
 *
 * @module
 */

import type { Target } from "puppeteer-core";
import type {
  DriverABrowser as Browser,
  DriverABrowserContext as BrowserContext,
  DriverAPage as Page,
} from "./types.ts";
import type { BrowserPort } from "../page/browser_port.ts";
import type { PageDriver, Unsubscribe } from "../page/page_driver.ts";
import { DriverAPageDriver } from "./puppeteer_driver.ts";

/** A {@link BrowserPort} over a DriverA `Browser` or `BrowserContext`. It never closes them. */
export class DriverABrowserPort implements BrowserPort<Page> {
  /** The wrapped browser or context. */
  readonly target: Browser | BrowserContext;

  /** Wraps the user's browser or context; it stays theirs. */
  constructor(target: Browser | BrowserContext) {
    this.target = target;
  }

  /** Pages of every context of the browser, or of the context. */
  pages(): Promise<Page[]> {
    return this.target.pages();
  }

  /** Opens a page in the context, or in `opener`'s context of the browser. */
  newPage(opener: Page | undefined): Promise<Page> {
    if (this.#isBrowser() && opener) return opener.browserContext().newPage();
    return this.target.newPage();
  }

  /** Listens for new page targets of the browser or context, once their page is ready. */
  onNewPage(listener: (page: Page) => void): Unsubscribe {
    let done = false;
    const onTarget = async (target: Target) => {
      if (target.type() !== "page") return;
      const page = await target.page().catch(() => null);
      if (page && !done) listener(page);
    };
    this.target.on("targetcreated", onTarget);
    return () => {
      if (done) return;
      done = true;
      this.target.off("targetcreated", onTarget);
    };
  }

  /** Brings `page` to the front (activates its tab). */
  async bringToFront(page: Page): Promise<void> {
    await page.bringToFront();
  }

  /** A {@link DriverAPageDriver} over `page`. */
  driver(page: Page): PageDriver {
    return new DriverAPageDriver(page);
  }

  // A Browser lists its contexts; a BrowserContext does not.
  #isBrowser(): boolean {
    return typeof (this.target as Partial<Browser>).browserContexts === "function";
  }
}
