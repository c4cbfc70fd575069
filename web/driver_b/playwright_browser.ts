/**
 * {@link BrowserPort} over a DriverB (`playwright-core`) browser or browser context.
 *
 * Only types come from `playwright-core` (a peer dependency).
 *
 * @module
 */

import type {
  DriverBBrowser as Browser,
  DriverBBrowserContext as BrowserContext,
  DriverBPage as Page,
} from "./types.ts";
import type { BrowserPort } from "../page/browser_port.ts";
import type { PageDriver, Unsubscribe } from "../page/page_driver.ts";
import { DriverBPageDriver } from "./playwright_driver.ts";

/** A {@link BrowserPort} over a DriverB `Browser` or `BrowserContext`. It never closes them. */
export class DriverBBrowserPort implements BrowserPort<Page> {
  /** The wrapped browser or context. */
  readonly target: Browser | BrowserContext;

  /** Wraps the user's browser or context; it stays theirs. */
  constructor(target: Browser | BrowserContext) {
    this.target = target;
  }

  /** Pages of every context of the browser, or of the context. */
  pages(): Promise<Page[]> {
    return Promise.resolve(this.#contexts().flatMap((context) => context.pages()));
  }

  /** Opens a page in the context, or in `opener`'s context of the browser. */
  newPage(opener: Page | undefined): Promise<Page> {
    const browser = this.#browser();
    if (!browser) return (this.target as BrowserContext).newPage();
    return opener ? opener.context().newPage() : browser.newPage();
  }

  /** Listens for new pages of the context, or of every context of the browser (new ones too). */
  onNewPage(listener: (page: Page) => void): Unsubscribe {
    const onPage = (page: Page) => listener(page);
    const watched = new Set<BrowserContext>();
    const watch = (context: BrowserContext) => {
      if (watched.has(context)) return;
      watched.add(context);
      context.on("page", onPage);
    };
    for (const context of this.#contexts()) watch(context);
    const browser = this.#browser();
    browser?.on("context", watch);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      browser?.off("context", watch);
      for (const context of watched) context.off("page", onPage);
    };
  }

  /** Brings `page` to the front (activates its tab). */
  async bringToFront(page: Page): Promise<void> {
    await page.bringToFront();
  }

  /** A {@link DriverBPageDriver} over `page`. */
  driver(page: Page): PageDriver {
    return new DriverBPageDriver(page);
  }

  // A Browser lists contexts; a BrowserContext does not.
  #browser(): Browser | undefined {
    const target = this.target as Partial<Browser>;
    return typeof target.contexts === "function" ? this.target as Browser : undefined;
  }

  #contexts(): BrowserContext[] {
    return this.#browser()?.contexts() ?? [this.target as BrowserContext];
  }
}
