/**
 * Key names for `KeyboardPress` on iOS. WebDriverAgent types keys as text through
 * `POST /session/:id/wda/keys` (`{ value: [...] }`), where `\n` is Return and `\b` deletes
 * backwards; it has no key events for Escape, arrows or function keys, so those are refused.
 * Names go through the shared normalizer of `@sdk/core` (`normalizeKeyCombo`), as on every
 * platform.
 *
 * @module
 */

import { normalizeKeyCombo, SdkTypeError } from "@sdk/core";

const NAMED: Readonly<Record<string, string>> = {
  Enter: "\n",
  Backspace: "\b",
  Tab: "\t",
  Space: " ",
};

/**
 * The text WDA's keys endpoint types for a key name (`Enter` -> `"\n"`, `Backspace` -> `"\b"`,
 * `Tab`, `Space`, or one printable character such as `a`, `7`, `?`).
 *
 * @throws {SdkTypeError} naming the key for a combination with modifiers (iOS presses one key at a
 * time), or a key the iOS keyboard has no text for (Escape, arrows, Home, F-keys, ...).
 */
export function iosKeyText(keyName: string): string {
  const key = normalizeKeyCombo(keyName);
  if (key !== "+" && key.includes("+")) {
    throw new SdkTypeError(
      `Cannot press ${JSON.stringify(keyName)} on an iOS device: key combinations with ` +
        "modifiers are not supported; press one key (Enter, Backspace, Tab, Space, a letter, ...)",
    );
  }
  const named = NAMED[key] ??
    Object.entries(NAMED).find(([name]) => name.toLowerCase() === key.toLowerCase())?.[1];
  if (named !== undefined) return named;
  if ([...key].length === 1 && /\P{Cc}/u.test(key)) return key;
  const hint = key === "Home"
    ? " (for the Home screen use home() or the MobileBHomeButton action)"
    : "";
  throw new SdkTypeError(
    `Cannot press ${JSON.stringify(keyName)} on an iOS device: WebDriverAgent types keys as ` +
      `text and has none for it${hint}; use Enter, Backspace, Tab, Space, or one character`,
  );
}
