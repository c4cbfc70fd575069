/**
 * Typing for the WDA front (private to `@sdk/mobileb/testing`): text as XCUITest's `typeText` takes
 * it, where `\b` (and DEL) is the delete key and `\n` (and `\r`) is return; WebDriver's key
 * code points for backspace and enter/return are understood too.
 *
 * @module
 */

import { KEYCODE, type VirtualPhone } from "@sdk/web/testing";

// XCUIKeyboardKeyDelete / XCUIKeyboardKeyReturn and WebDriver's U+E003 (backspace), U+E017
// (delete), U+E006 (return), U+E007 (enter).
const DELETE_KEYS = new Set(["\b", "\u007f", "\ue003", "\ue017"]);
const RETURN_KEYS = new Set(["\n", "\r", "\ue006", "\ue007"]);

/**
 * Types `text` into the phone's focused element: runs of ordinary characters as key presses
 * (any Unicode), delete and return characters as those keys.
 */
export async function typeKeys(phone: VirtualPhone, text: string): Promise<void> {
  let run = "";
  const flush = async () => {
    if (run) await phone.inputText(run);
    run = "";
  };
  for (const char of text) {
    if (DELETE_KEYS.has(char)) {
      await flush();
      await phone.keyEvent(KEYCODE.DEL);
    } else if (RETURN_KEYS.has(char)) {
      await flush();
      await phone.keyEvent(KEYCODE.ENTER);
    } else run += char;
  }
  await flush();
}
