/**
 * Typing into the focused field and emptying it: `input text` for printable ASCII, the yadb
 * helper for anything else (`input text` cannot type accents, Chinese or a `%s`), following the
 * device's `imeStrategy`, `inputStrategy` and `keyboardTypeDelay`.
 *
 * @module
 */

import type { InputActionOptions, InputStrategy } from "@sdk/core";
import { shellQuote, typeCodePoints, typeSettings } from "@sdk/core";
import {
  inputCommand,
  type InputTarget,
  KEYCODE_DEL,
  KEYCODE_MOVE_END,
  keyevent,
} from "./input.ts";
import { yadbCommand, type YadbHelper } from "./yadb.ts";

// Deletes sent to empty a field when the yadb helper is not on the device.
const CLEAR_DELETES = 120;

/** How the device types, from its options. */
export interface TypingSettings {
  /** The helper for all text (`imeStrategy: 'always-helper'`), not only where `input text` cannot. */
  readonly alwaysHelper: boolean;
  /** The device's `keyboardTypeDelay`. */
  readonly typeDelay: number | undefined;
  /** The device's `inputStrategy`. */
  readonly inputStrategy: InputStrategy;
}

/**
 * Whether `input text` can type `text`: printable ASCII without a `%` format specifier (Android's
 * `input text` reads `%s` as a space).
 */
export function isNativeText(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text) && !/%[a-zA-Z]/.test(text);
}

/** Android's `input text` escaping: a space is written `%s`. */
export function escapeInputText(text: string): string {
  return text.replace(/ /g, "%s");
}

const HELPER_PURPOSE = "type this text (non-ASCII or a % format specifier)";

/** Whether `text` goes through the yadb helper rather than `input text`. */
function needsHelper(settings: TypingSettings, text: string): boolean {
  return settings.alwaysHelper || !isNativeText(text);
}

/**
 * Checks, before anything is typed, that `text` can be sent: text for the helper needs it on
 * the device.
 *
 * @throws {MissingDependencyError} (`yadb`) saying how to push the helper.
 */
export async function checkText(
  yadb: YadbHelper,
  settings: TypingSettings,
  text: string,
): Promise<void> {
  if (text !== "" && needsHelper(settings, text)) await yadb.require(HELPER_PURPOSE);
}

/** Types `text` into the focused field, with the action's overrides of the device's settings. */
export async function typeText(
  target: InputTarget,
  yadb: YadbHelper,
  settings: TypingSettings,
  text: string,
  overrides: InputActionOptions | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const { delay, strategy } = typeSettings(overrides, settings.typeDelay, settings.inputStrategy);
  if (text === "") return;
  const helper = needsHelper(settings, text);
  if (helper) await yadb.require(HELPER_PURPOSE);
  const send = (part: string) =>
    helper
      ? target.shell.shellOk(`${yadbCommand("-keyboard")} ${shellQuote(part)}`)
      : target.shell.shellOk(inputCommand(target, `text ${shellQuote(escapeInputText(part))}`));
  // 'sequential' splits both paths; 'legacy' with a delay splits the native path only.
  const split = strategy === "sequential" || (strategy === "legacy" && delay > 0 && !helper);
  if (!split) {
    await send(text);
    return;
  }
  await typeCodePoints(text, delay, signal, send);
}

/** Empties the focused field: the helper's clear, else the caret to the end and deletes. */
export async function clearField(target: InputTarget, yadb: YadbHelper): Promise<void> {
  if (await yadb.available()) {
    await target.shell.shellOk(`${yadbCommand("-keyboard")} ~CLEAR~`);
    return;
  }
  await keyevent(target, KEYCODE_MOVE_END, ...Array(CLEAR_DELETES).fill(KEYCODE_DEL));
}
