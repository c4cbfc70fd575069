/**
 * Key names for the desktop: the canonical `Mod+...+Key` names of `@sdk/core` (`Control+A`,
 * `Shift+Enter`, `F5`) turned into the names of nut-js's `Key` enum, and the en-US layout's
 * shifted punctuation (`!` is Shift + `1`).
 *
 * Names only: nothing here loads nut-js, so the mapping can be checked before a display exists.
 *
 * @module
 */

import { normalizeKeyCombo, SdkTypeError } from "@sdk/core";

/** A key press planned for nut-js: modifier and key names of its `Key` enum, modifiers first. */
export interface NutKeyCombo {
  /** Names of nut-js `Key` members, modifiers first, the main key last (`["LeftControl", "A"]`). */
  keys: string[];
}

const NAMED: Readonly<Record<string, string>> = {
  Control: "LeftControl",
  Shift: "LeftShift",
  Alt: "LeftAlt",
  Meta: "LeftSuper",
  // nut-js's `Enter` is the keypad's (KP_Enter), which many toolkits do not bind; `Return` is
  // the main Enter key.
  Enter: "Return",
  Tab: "Tab",
  Escape: "Escape",
  Backspace: "Backspace",
  Delete: "Delete",
  Insert: "Insert",
  Home: "Home",
  End: "End",
  PageUp: "PageUp",
  PageDown: "PageDown",
  ArrowUp: "Up",
  ArrowDown: "Down",
  ArrowLeft: "Left",
  ArrowRight: "Right",
  Space: "Space",
  CapsLock: "CapsLock",
  PrintScreen: "Print",
  ScrollLock: "ScrollLock",
  NumLock: "NumLock",
};

/**
 * Key names nut-js cannot press under X11: no key code for `ContextMenu` (an error) and `Pause`
 * (nothing is sent), and F13-F24, which X11 keymaps leave without a key, so that XTest's error
 * would end the nut-js process.
 */
const NO_KEY = /^(ContextMenu|Pause|F(1[3-9]|2[0-4]))$/;

/** Unshifted en-US characters that have a key of their own. */
const PLAIN_CHARS: Readonly<Record<string, string>> = {
  "`": "Grave",
  "-": "Minus",
  "=": "Equal",
  "[": "LeftBracket",
  "]": "RightBracket",
  "\\": "Backslash",
  ";": "Semicolon",
  "'": "Quote",
  ",": "Comma",
  ".": "Period",
  "/": "Slash",
  " ": "Space",
};

/**
 * Shifted punctuation of the en-US layout: the character -> the key it sits on. Typing no
 * longer uses it (key-by-key input follows the X server's keymap, `keymap.ts`); kept for
 * programs that map characters to US keys themselves.
 */
export const EN_US_SHIFTED: Readonly<Record<string, string>> = {
  "~": "Grave",
  "!": "Num1",
  "@": "Num2",
  "#": "Num3",
  "$": "Num4",
  "%": "Num5",
  "^": "Num6",
  "&": "Num7",
  "*": "Num8",
  "(": "Num9",
  ")": "Num0",
  "_": "Minus",
  "+": "Equal",
  "{": "LeftBracket",
  "}": "RightBracket",
  "|": "Backslash",
  ":": "Semicolon",
  '"': "Quote",
  "<": "Comma",
  ">": "Period",
  "?": "Slash",
};

function keyOf(name: string, combo: string): string {
  if (NAMED[name]) return NAMED[name];
  if (NO_KEY.test(name)) {
    throw new SdkTypeError(
      `Cannot press ${JSON.stringify(combo)} on the desktop: nut-js cannot press ${
        JSON.stringify(name)
      } under X11 (no key code for it on X11 keymaps). Function keys go up to F12`,
    );
  }
  if (/^F([1-9]|1[0-2])$/.test(name)) return name;
  if ([...name].length === 1) {
    if (/^[a-zA-Z]$/.test(name)) return name.toUpperCase();
    if (/^[0-9]$/.test(name)) return `Num${name}`;
    if (PLAIN_CHARS[name]) return PLAIN_CHARS[name];
  }
  throw new SdkTypeError(
    `Cannot press ${JSON.stringify(combo)} on the desktop: ${
      JSON.stringify(name)
    } is not a key name. Use Enter, Tab, Escape, Backspace, Delete, Insert, Home, End, PageUp, ` +
      `PageDown, ArrowUp/Down/Left/Right, Space, F1-F12, a letter, a digit or unshifted ` +
      `punctuation, with Control, Shift, Alt or Meta joined by + (Control+S); type other ` +
      `characters with Input`,
  );
}

/**
 * The nut-js keys of a key or combination as a model or caller writes it (`ctrl+s`, `Esc`,
 * `Shift+Tab`). An upper-case letter alone means the letter key (Shift is not implied).
 *
 * @throws {SdkTypeError} (a `TypeError`) naming the key when it is not a key name (see the message for the list),
 *   or when the combination is malformed.
 */
export function desktopKeys(combo: string): NutKeyCombo {
  // "+" joins parts but is a key too: "Control++" is Control and "+".
  const parts = normalizeKeyCombo(combo).split(/\+(?=.)/);
  return { keys: parts.map((part) => keyOf(part, combo)) };
}
