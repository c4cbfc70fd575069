/**
 * HarmonyOS key codes of `uitest uiInput keyEvent` (private to `@sdk/mobilec/testing`), mapped onto
 * the Android key codes the virtual phone acts on. The HarmonyOS numbers are those of
 * `@ohos.multimodalInput.keyCode` (`KEYCODE_HOME = 1`, `KEYCODE_ENTER = 2054`, ...).
 *
 * @module
 */

import { KEYCODE } from "@sdk/web/testing";

/** HarmonyOS modifier key codes: Alt, Shift, Ctrl and Meta, left and right. */
export const HARMONY_MODIFIERS: ReadonlyMap<number, string> = new Map([
  [2045, "Alt"],
  [2046, "Alt"],
  [2047, "Shift"],
  [2048, "Shift"],
  [2072, "Control"],
  [2073, "Control"],
  [2076, "Meta"],
  [2077, "Meta"],
]);

// HarmonyOS key code -> Android key code, for the keys the phone knows.
const TO_ANDROID: ReadonlyMap<number, number> = new Map<number, number>([
  [1, KEYCODE.HOME],
  [2, KEYCODE.BACK],
  [9, KEYCODE.SEARCH],
  [16, KEYCODE.VOLUME_UP],
  [17, KEYCODE.VOLUME_DOWN],
  [18, KEYCODE.POWER],
  [2012, KEYCODE.DPAD_UP],
  [2013, KEYCODE.DPAD_DOWN],
  [2014, KEYCODE.DPAD_LEFT],
  [2015, KEYCODE.DPAD_RIGHT],
  [2049, KEYCODE.TAB],
  [2050, KEYCODE.SPACE],
  [2054, KEYCODE.ENTER],
  [2055, KEYCODE.DEL],
  [2067, KEYCODE.MENU],
  [2068, KEYCODE.PAGE_UP],
  [2069, KEYCODE.PAGE_DOWN],
  [2070, KEYCODE.ESCAPE],
  [2071, KEYCODE.FORWARD_DEL],
  [2081, KEYCODE.MOVE_HOME],
  [2082, KEYCODE.MOVE_END],
  [2210, KEYCODE.APP_SWITCH], // KEYCODE_VIRTUAL_MULTITASK
  // KEYCODE_0..9 = 2000..2009 -> Android 7..16; KEYCODE_A..Z = 2017..2042 -> Android 29..54.
  ...Array.from({ length: 10 }, (_, i) => [2000 + i, 7 + i] as [number, number]),
  ...Array.from({ length: 26 }, (_, i) => [2017 + i, 29 + i] as [number, number]),
]);

// What a key produces in a web page (`KeyboardEvent.key`), for key combinations.
const PAGE_KEY: ReadonlyMap<number, string> = new Map<number, string>([
  [2049, "Tab"],
  [2050, " "],
  [2054, "Enter"],
  [2055, "Backspace"],
  [2070, "Escape"],
  [2071, "Delete"],
  [2012, "ArrowUp"],
  [2013, "ArrowDown"],
  [2014, "ArrowLeft"],
  [2015, "ArrowRight"],
  [2081, "Home"],
  [2082, "End"],
  ...Array.from({ length: 10 }, (_, i) => [2000 + i, String(i)] as [number, string]),
  ...Array.from(
    { length: 26 },
    (_, i) => [2017 + i, String.fromCharCode(97 + i)] as [number, string],
  ),
]);

/** The system keys `keyEvent` takes by name, as HarmonyOS key codes. */
export const HARMONY_NAMED_KEYS: Readonly<Record<string, number>> = {
  Home: 1,
  Back: 2,
  Power: 18,
};

/** The Android key code the phone acts on for a HarmonyOS key code; undefined when none. */
export function androidKeyOf(harmonyCode: number): number | undefined {
  return TO_ANDROID.get(harmonyCode);
}

/**
 * A HarmonyOS key combination as Playwright's key string (`Control+a`), or undefined when a key
 * of it has no page equivalent.
 */
export function pageComboOf(codes: readonly number[]): string | undefined {
  const parts: string[] = [];
  for (const code of codes) {
    const name = HARMONY_MODIFIERS.get(code) ?? PAGE_KEY.get(code);
    if (name === undefined) return undefined;
    parts.push(name);
  }
  return parts.join("+");
}
