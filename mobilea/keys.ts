/**
 * Android key codes for `KeyboardPress`. Key names go through the shared normalizer of
 * `@sdk/core` (`normalizeKeyCombo`: `Esc` -> `Escape`, `ctrl+a` -> `Control+a`), so the planner
 * writes the same names on every platform; this table maps the result to `KEYCODE_*` numbers.
 *
 * @module
 */

import { normalizeKeyCombo, SdkTypeError } from "@sdk/core";

/** Android key codes by the normalized key name (`KeyboardEvent.key` spelling). */
const KEYCODES: Readonly<Record<string, number>> = {
  Enter: 66,
  Tab: 61,
  Escape: 111,
  Backspace: 67,
  Delete: 112,
  Insert: 124,
  Home: 122, // KEYCODE_MOVE_HOME: the caret, as on the web (the system Home is MobileAHomeButton)
  End: 123, // KEYCODE_MOVE_END
  PageUp: 92,
  PageDown: 93,
  ArrowUp: 19,
  ArrowDown: 20,
  ArrowLeft: 21,
  ArrowRight: 22,
  Space: 62,
  " ": 62,
  CapsLock: 115,
  ContextMenu: 82, // KEYCODE_MENU
  Shift: 59,
  Control: 113,
  Alt: 57,
  Meta: 117,
  // Android's own keys, by their usual names.
  Back: 4,
  GoBack: 4,
  AppSwitch: 187,
  VolumeUp: 24,
  VolumeDown: 25,
  Power: 26,
  Search: 84,
};

const PUNCTUATION: Readonly<Record<string, number>> = {
  ",": 55,
  ".": 56,
  "`": 68,
  "-": 69,
  "=": 70,
  "[": 71,
  "]": 72,
  "\\": 73,
  ";": 74,
  "'": 75,
  "/": 76,
  "@": 77,
  "+": 81,
  "*": 17,
  "#": 18,
};

/**
 * The Android key code of a key name as the planner writes it (`Enter`, `esc`, `a`, `7`, `F5`,
 * `Back`).
 *
 * @returns the `KEYCODE_*` number.
 * @throws {SdkTypeError} naming the key when it is a combination with modifiers (MobileA presses
 * one key at a time) or has no Android key code.
 */
export function androidKeyCode(keyName: string): number {
  const key = normalizeKeyCombo(keyName);
  if (key !== "+" && key.includes("+")) {
    throw new SdkTypeError(
      `Cannot press ${JSON.stringify(keyName)} on an Android device: key combinations with ` +
        "modifiers are not supported; press one key (Enter, Tab, Escape, Backspace, a letter, ...)",
    );
  }
  const named = KEYCODES[key] ??
    Object.entries(KEYCODES).find(([name]) => name.toLowerCase() === key.toLowerCase())?.[1];
  if (named !== undefined) return named;
  if (/^[a-z]$/i.test(key)) return 29 + key.toLowerCase().charCodeAt(0) - 97;
  if (/^[0-9]$/.test(key)) return 7 + key.charCodeAt(0) - 48;
  const f = /^F([1-9]|1[0-2])$/.exec(key);
  if (f) return 131 + Number(f[1]) - 1;
  if (PUNCTUATION[key] !== undefined) return PUNCTUATION[key];
  throw new SdkTypeError(
    `Cannot press ${JSON.stringify(keyName)} on an Android device: it has no Android key code ` +
      "(use Enter, Tab, Escape, Backspace, Delete, arrows, Home, End, a letter or a digit)",
  );
}
