/**
 * The virtual phone's on-screen keyboard (private to `@sdk/web/testing`): a script in every page
 * tracks whether the keyboard would be up, since it covers nothing on screen and the page cannot
 * tell. It is up when an editable element gains focus or is touched, and down when focus leaves
 * or the phone dismisses it (BACK, ESCAPE).
 *
 * @module
 */

import type { Page } from "playwright-core";

/** The tracking script, added to every page of the phone's context before the page's own. */
export const KEYBOARD_SCRIPT = `(() => {
  const editable = (el) => !!el && (el.isContentEditable || el.tagName === "TEXTAREA" ||
    (el.tagName === "INPUT" && !/^(button|checkbox|radio|submit|reset|range|color|file|image|hidden)$/i.test(el.type)));
  window.__simulatorKeyboard = { shown: false, editable };
  addEventListener("focusin", (e) => { window.__simulatorKeyboard.shown = editable(e.target); }, true);
  addEventListener("focusout", () => { window.__simulatorKeyboard.shown = false; }, true);
  addEventListener("touchend", (e) => {
    if (editable(e.target) && e.target === document.activeElement) window.__simulatorKeyboard.shown = true;
  }, true);
})();`;

/** Whether the keyboard is up on the page: shown, and an editable element still has focus. */
export async function keyboardShown(page: Page): Promise<boolean> {
  return await page.evaluate(() => {
    const page = globalThis as unknown as {
      __simulatorKeyboard?: { shown: boolean; editable(el: unknown): boolean };
      document: { activeElement: unknown };
    };
    const state = page.__simulatorKeyboard;
    return !!state && state.shown && state.editable(page.document.activeElement);
  });
}

/** Hides the keyboard on the page; focus stays where it is. */
export async function dismissKeyboard(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = (globalThis as unknown as { __simulatorKeyboard?: { shown: boolean } })
      .__simulatorKeyboard;
    if (state) state.shown = false;
  });
}
