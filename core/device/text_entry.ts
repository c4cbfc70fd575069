/**
 * The bodies of the text actions `Input`, `ClearInput` and `KeyboardPress` where a device types
 * with key events or commands (phones, desktops): tap the target, move the caret or empty the
 * field, type, hide the keyboard. The device gives its primitives through
 * {@link TextEntryHost}; the action definitions (name, schema, wording) stay in `actions.ts`.
 *
 * @module
 */

import { INPUT_MODES } from "./actions.ts";
import {
  type ActionParams,
  readEnumParam,
  readLocateCenter,
  readLocateParam,
  readStringParam,
} from "./params.ts";
import type { ActionContext, InputActionOptions, Point } from "./types.ts";

/** What the text actions need from a device. Points are logical pixels. */
export interface TextEntryHost {
  /** One tap or click at `point`: on the field to type into, or the element to press a key on. */
  tap(point: Point): Promise<void>;
  /**
   * Moves the caret to the end of the focused field, for `Input`'s `typeOnly`. Absent: the text
   * goes where the caret is.
   */
  caretToEnd?(): Promise<void>;
  /** Empties the focused field. */
  clearField(): Promise<void>;
  /**
   * Whether the field at `point` takes a secret (a password field), so that what `Input` types
   * there is written as `***` (docs/security.md). Absent: the device does not say.
   */
  takesSecret?(point: Point): Promise<boolean>;
  /**
   * Checks, before `Input` taps or empties anything, that {@link TextEntryHost.typeText} can send
   * `text` with these settings; throws naming the characters it cannot. Absent: any text goes.
   */
  checkText?(text: string, overrides: InputActionOptions | undefined): Promise<void>;
  /** Types `text` with the device's input settings, the action's `overrides` winning. */
  typeText(
    text: string,
    overrides: InputActionOptions | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void>;
  /**
   * The key `keyName` names, checked now (throws for a name the device has no key for), as the
   * press to run later.
   */
  key(keyName: string): () => Promise<void>;
  /**
   * Hides the on-screen keyboard after `Input` and `ClearInput`. Absent where the device has
   * none, or its `autoDismissKeyboard` is off.
   */
  dismissKeyboard?(): Promise<void>;
}

/**
 * `Input`: taps `locate` when given; for `typeOnly` (and the deprecated `append`) moves the caret
 * to the end, else empties the field; types `value` unless the mode is `clear`; hides the
 * keyboard.
 *
 * @throws {TypeError} naming `Input` and the parameter for a malformed one, and the device's
 *   error for characters it cannot send (both before any input: the field keeps its text).
 */
export async function runInput(
  host: TextEntryHost,
  param: ActionParams,
  context: ActionContext,
): Promise<void> {
  const target = readLocateParam("Input", param, false);
  // 'append' is the deprecated name of 'typeOnly' (spec 4.7); it is accepted, not advertised.
  const mode = readEnumParam("Input", param, "mode", [...INPUT_MODES, "append"], "replace");
  const value = readStringParam("Input", param, "value", mode !== "clear") ?? "";
  if (mode !== "clear") await host.checkText?.(value, context.inputOptions);
  const secret = context.secret;
  if (target && secret && !secret.value && mode !== "clear" && host.takesSecret) {
    if (await host.takesSecret(target.center)) secret.value = true;
  }
  if (target) await host.tap(target.center);
  if (mode === "typeOnly" || mode === "append") {
    await host.caretToEnd?.();
  } else {
    await host.clearField();
  }
  if (mode !== "clear") await host.typeText(value, context.inputOptions, context.signal);
  await host.dismissKeyboard?.();
}

/**
 * `ClearInput`: taps `locate` (required), empties the field, hides the keyboard.
 *
 * @throws {TypeError} naming `ClearInput` for a missing or malformed `locate`.
 */
export async function runClearInput(host: TextEntryHost, param: ActionParams): Promise<void> {
  await host.tap(readLocateCenter("ClearInput", param));
  await host.clearField();
  await host.dismissKeyboard?.();
}

/**
 * `KeyboardPress`: checks `keyName`, taps `locate` when given, then presses the key.
 *
 * @throws {TypeError} naming `KeyboardPress` for a malformed parameter, and the device's error
 *   for a key name it has no key for (both before the tap).
 */
export async function runKeyboardPress(host: TextEntryHost, param: ActionParams): Promise<void> {
  const target = readLocateParam("KeyboardPress", param, false);
  const press = host.key(readStringParam("KeyboardPress", param, "keyName", true));
  if (target) await host.tap(target.center);
  await press();
}
