/**
 * HarmonyOS key codes for MobileC's `KeyboardPress` (`uitest uiInput keyEvent`). Key names go
 * through the shared normalizer of `@sdk/core` (`Esc` -> `Escape`), so the planner writes the
 * same names on every platform; this table maps them to the codes of
 * `@ohos.multimodalInput.keyCode`. A conservative set (spec 4.2): named keys, `A`-`Z` and
 * `0`-`9`; characters without a key of their own (`?`, `!`) are not key names.
 *
 * @module
 */

import { normalizeKeyCombo, SdkTypeError } from "@sdk/core";

/** HarmonyOS key codes by the normalized key name (`KeyboardEvent.key` spelling). */
const KEYCODES: Readonly<Record<string, number>> = {
  Enter: 2054,
  Tab: 2049,
  Escape: 2070,
  Backspace: 2055,
  Delete: 2071,
  Space: 2050,
  " ": 2050,
  ArrowUp: 2012,
  ArrowDown: 2013,
  ArrowLeft: 2014,
  ArrowRight: 2015,
  Home: 2081, // KEYCODE_MOVE_HOME: the caret, as on the web (the system Home is MobileCHomeButton)
  End: 2082, // KEYCODE_MOVE_END
  PageUp: 2068,
  PageDown: 2069,
  // HarmonyOS's own keys, by their usual names.
  Back: 2,
  GoBack: 2,
  Search: 9,
  VolumeUp: 16,
  VolumeDown: 17,
  Power: 18,
};

/** The key names MobileC accepts besides letters and digits, for messages. */
export const MOBILEC_KEY_NAMES: readonly string[] = Object.keys(KEYCODES).filter((k) => k !== " ");

/**
 * The argument of `uitest uiInput keyEvent` for a key name as the planner writes it (`Enter`,
 * `esc`, `a`, `7`, `Back`): a HarmonyOS key code, or `Back` / `Power` (the names uitest takes).
 *
 * @throws {SdkTypeError} naming the key when it is a combination with modifiers (MobileC presses
 * one key at a time) or is not one of the keys above, a letter or a digit.
 */
export function harmonyKeyEvent(keyName: string): string {
  const key = normalizeKeyCombo(keyName);
  if (key !== "+" && key.includes("+")) {
    throw new SdkTypeError(
      `Cannot press ${JSON.stringify(keyName)} on a HarmonyOS device: key combinations with ` +
        "modifiers are not supported; press one key (Enter, Tab, Escape, Backspace, a letter, ...)",
    );
  }
  const code = KEYCODES[key] ??
    Object.entries(KEYCODES).find(([name]) => name.toLowerCase() === key.toLowerCase())?.[1];
  if (code === 2) return "Back";
  if (code === 18) return "Power";
  if (code !== undefined) return String(code);
  if (/^[a-z]$/i.test(key)) return String(2017 + key.toLowerCase().charCodeAt(0) - 97);
  if (/^[0-9]$/.test(key)) return String(2000 + key.charCodeAt(0) - 48);
  throw new SdkTypeError(
    `Cannot press ${JSON.stringify(keyName)} on a HarmonyOS device: it is not a key name MobileC ` +
      `knows (${MOBILEC_KEY_NAMES.join(", ")}, A-Z, 0-9); type characters such as ` +
      `punctuation with aiInput`,
  );
}
