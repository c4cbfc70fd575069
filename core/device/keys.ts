/**
 * Key names for `KeyboardPress`, shared by every device and planning dialect.
 *
 * Models write key names loosely ("ctrl+a", "Esc", "Cmd + Enter"); devices take one canonical
 * form, `Mod+...+Key` with `KeyboardEvent.key` names, so every driver sees the same string.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import { type ActionParams, readStringParam } from "./params.ts";

const MODIFIERS: Readonly<Record<string, string>> = {
  control: "Control",
  ctrl: "Control",
  ctl: "Control",
  shift: "Shift",
  alt: "Alt",
  option: "Alt",
  opt: "Alt",
  meta: "Meta",
  cmd: "Meta",
  command: "Meta",
  win: "Meta",
  windows: "Meta",
  super: "Meta",
};

const KEYS: Readonly<Record<string, string>> = {
  enter: "Enter",
  return: "Enter",
  tab: "Tab",
  esc: "Escape",
  escape: "Escape",
  backspace: "Backspace",
  delete: "Delete",
  del: "Delete",
  insert: "Insert",
  ins: "Insert",
  home: "Home",
  end: "End",
  pageup: "PageUp",
  pagedown: "PageDown",
  pgup: "PageUp",
  pgdn: "PageDown",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  arrowup: "ArrowUp",
  arrowdown: "ArrowDown",
  arrowleft: "ArrowLeft",
  arrowright: "ArrowRight",
  space: "Space",
  spacebar: "Space",
  capslock: "CapsLock",
  contextmenu: "ContextMenu",
  // A modifier may also be pressed alone.
  control: "Control",
  ctrl: "Control",
  shift: "Shift",
  alt: "Alt",
  meta: "Meta",
  cmd: "Meta",
};

/**
 * Turns a loosely written key or combination into `Mod+...+Key`.
 *
 * Modifiers are recognised by their usual names (`Ctrl`, `Cmd`, `Option` ...), common key names
 * are spelled the `KeyboardEvent.key` way (`Esc` -> `Escape`), `F1`-`F24` are upper-cased, and any
 * other key (a single character, or a name the driver knows) is kept as written.
 *
 * @throws {TypeError} when `combo` is empty, has an empty part, or has a non-modifier before its
 * last part.
 */
export function normalizeKeyCombo(combo: string): string {
  const parts = splitCombo(combo.trim());
  if (parts.length === 0 || parts.some((p) => p === "")) {
    throw new SdkTypeError(
      `Cannot press keys: ${JSON.stringify(combo)} is not a key or a combination`,
    );
  }
  const key = parts[parts.length - 1];
  const modifiers = parts.slice(0, -1).map((part) => {
    const modifier = MODIFIERS[part.toLowerCase()];
    if (!modifier) {
      throw new SdkTypeError(
        `Cannot press keys: ${JSON.stringify(part)} in ${
          JSON.stringify(combo)
        } is not a modifier (Control, Shift, Alt, Meta)`,
      );
    }
    return modifier;
  });
  return [...modifiers, normalizeKey(key)].join("+");
}

/**
 * `KeyboardPress`'s `keyName` as `Mod+...+Key` ({@link normalizeKeyCombo}), for devices that
 * press any key a browser knows.
 *
 * @throws {SdkTypeError} naming `KeyboardPress` for a missing `keyName` or one that is not a key.
 */
export function readKeyComboParam(param: ActionParams): string {
  const keyName = readStringParam("KeyboardPress", param, "keyName", true);
  try {
    return normalizeKeyCombo(keyName);
  } catch (error) {
    throw new SdkTypeError(
      `Cannot run KeyboardPress: 'keyName' is not a key: ${(error as Error).message}`,
    );
  }
}

function normalizeKey(key: string): string {
  if ([...key].length === 1) return key;
  const lower = key.toLowerCase();
  if (KEYS[lower]) return KEYS[lower];
  if (/^f([1-9]|1\d|2[0-4])$/.test(lower)) return lower.toUpperCase();
  return key;
}

// "+" separates parts, but is also a key: "Control++" is Control and "+"; "+" alone is "+".
function splitCombo(combo: string): string[] {
  if (combo === "") return [];
  const parts: string[] = [];
  let current = "";
  for (const char of combo) {
    if (char === "+" && current.trim() !== "") {
      parts.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current.trim());
  return parts;
}
