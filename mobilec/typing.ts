/**
 * Typing with `uitest uiInput text` following the device's `inputStrategy` and
 * `keyboardTypeDelay`, emptying the focused field, and hiding the keyboard.
 *
 * @module
 */

import type { InputActionOptions, InputStrategy } from "@sdk/core";
import { shellQuote, typeCodePoints, typeSettings } from "@sdk/core";
import { keyEvent, uiInput } from "./input.ts";
import { harmonyKeyEvent } from "./keys.ts";
import type { ToolShell } from "./tool_shell.ts";

const KEY_ESCAPE = harmonyKeyEvent("Escape");
const KEY_CTRL = "2072"; // KEYCODE_CTRL_LEFT: a modifier, not a key KeyboardPress takes
const KEY_A = harmonyKeyEvent("a");
const KEY_BACKSPACE = harmonyKeyEvent("Backspace");

/** How the device types, from its options. */
export interface TypingSettings {
  /** The device's `keyboardTypeDelay`. */
  readonly typeDelay: number | undefined;
  /** The device's `inputStrategy`. */
  readonly inputStrategy: InputStrategy;
}

/** The key that hides the keyboard: `'esc-first'` Escape, `'back-first'` Back. */
export type KeyboardDismissStrategy = "esc-first" | "back-first";

/** Types `text` into the focused field, with the action's overrides of the device's settings. */
export async function typeText(
  shell: ToolShell,
  settings: TypingSettings,
  text: string,
  overrides: InputActionOptions | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const { delay, strategy } = typeSettings(overrides, settings.typeDelay, settings.inputStrategy);
  if (text === "") return;
  const send = (part: string) => uiInput(shell, `text ${shellQuote(part)}`);
  if (strategy === "bulk" || (strategy === "legacy" && delay === 0)) {
    await send(text);
    return;
  }
  await typeCodePoints(text, delay, signal, send);
}

/** Selects the field's text (Ctrl+A) and deletes it. */
export async function clearField(shell: ToolShell): Promise<void> {
  await keyEvent(shell, KEY_CTRL, KEY_A);
  await keyEvent(shell, KEY_BACKSPACE);
}

/** Hides the keyboard with the strategy's key. */
export async function dismissKeyboard(
  shell: ToolShell,
  strategy: KeyboardDismissStrategy,
): Promise<void> {
  await keyEvent(shell, strategy === "esc-first" ? KEY_ESCAPE : "Back");
}
