/**
 * Hiding the on-screen keyboard after `Input` and `ClearInput` (`autoDismissKeyboard`), with the
 * keys of `keyboardDismissStrategy`.
 *
 * @module
 */

import { type InputTarget, KEYCODE_BACK, KEYCODE_ESCAPE, keyevent } from "./input.ts";

/** The keys tried, in order: `'esc-first'` (ESCAPE, then BACK) or `'back-first'`. */
export type KeyboardDismissStrategy = "esc-first" | "back-first";

/**
 * Hides the keyboard with the strategy's keys, each only while the keyboard is still up (BACK on
 * a screen without a keyboard would navigate).
 */
export async function dismissKeyboard(
  target: InputTarget,
  strategy: KeyboardDismissStrategy,
): Promise<void> {
  const keys = strategy === "esc-first"
    ? [KEYCODE_ESCAPE, KEYCODE_BACK]
    : [KEYCODE_BACK, KEYCODE_ESCAPE];
  for (const key of keys) {
    if (!(await keyboardShown(target))) return;
    await keyevent(target, key);
  }
}

async function keyboardShown(target: InputTarget): Promise<boolean> {
  const result = await target.shell.shell("dumpsys input_method");
  return /mInputShown=true/.test(result.stdout);
}
