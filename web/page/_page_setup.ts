/**
 * Page setup (private to `@sdk/web`): the scripts every document of a page gets before the device
 * looks at it or acts on it (same-tab navigation, select rendering; spec 4.7).
 *
 * @module
 */

import type { PageDriver } from "./page_driver.ts";
import { keepNavigationInTab, renderSelectsInPage } from "./_page_scripts.ts";

/** Which page scripts a {@link PageSetup} starts with. */
export interface PageSetupOptions {
  /** `forceSameTabNavigation`. */
  sameTabNavigation: boolean;
  /** `forceChromeSelectRendering`. */
  selectRendering: boolean;
}

/** The page scripts, the drivers whose page has them, and how to undo the init scripts. */
export class PageSetup {
  readonly #scripts: (() => void)[] = [];
  readonly #prepared = new WeakSet<PageDriver>();
  readonly #removeInitScripts: (() => Promise<void>)[] = [];

  constructor(options: PageSetupOptions) {
    if (options.sameTabNavigation) this.#scripts.push(keepNavigationInTab);
    if (options.selectRendering) this.#scripts.push(renderSelectsInPage);
  }

  /** Adds or removes same-tab navigation for the pages prepared from now on. */
  setSameTabNavigation(enabled: boolean): void {
    const at = this.#scripts.indexOf(keepNavigationInTab);
    if (enabled && at < 0) this.#scripts.unshift(keepNavigationInTab);
    if (!enabled && at >= 0) this.#scripts.splice(at, 1);
  }

  /**
   * Once per page: an init script for later documents, and a run in the current one. Each
   * script is idempotent, so a retry after a half-done setup is harmless.
   */
  async prepare(driver: PageDriver): Promise<void> {
    if (this.#prepared.has(driver)) return;
    try {
      for (const script of this.#scripts) {
        this.#removeInitScripts.push(await driver.addInitScript(script));
      }
    } catch {
      // The page is closing: the action will tell. Try again before the next one.
      return;
    }
    this.#prepared.add(driver);
    for (const script of this.#scripts) {
      await driver.evaluate(script).catch(() => {
        // The page is navigating: the init script covers the new document.
      });
    }
  }

  /** Removes the init scripts added so far from later documents; never rejects. */
  async removeInitScripts(): Promise<void> {
    await Promise.all(this.#removeInitScripts.splice(0).map((remove) => remove().catch(() => {})));
  }
}
