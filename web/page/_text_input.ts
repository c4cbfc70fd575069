/**
 * The web text field actions `Input` and `ClearInput` (private to `@sdk/web`): how text is typed
 * (`inputStrategy`, `keyboardTypeDelay`; spec 4.2), and how a field's value is selected or its
 * caret moved, by a page script for the fields it knows and by keys for the rest.
 *
 * @module
 */

import type { ActionParams, InputActionOptions, InputStrategy, TypeSettings } from "../_core.ts";
import { INPUT_MODES, readEnumParam, readLocateParam, readStringParam } from "../_core.ts";
import { typeCodePoints, typeSettings } from "../_core.ts";
import { editFocusedField, type FieldEdit } from "./_page_scripts.ts";
import { clickAt, type PointerHost } from "./_pointer_input.ts";

/** What the text actions need from the device: pointer input and its typing defaults. */
export interface TextInputHost extends PointerHost {
  /** The device's `keyboardTypeDelay`, ms; an action's own value wins. */
  readonly typeDelay: number | undefined;
  /** The device's `inputStrategy`; an action's own value wins. */
  readonly inputStrategy: InputStrategy;
}

/**
 * The `Input` action: clicks the element when given, then replaces the field's value, types at
 * its end (`typeOnly`), or clears it.
 */
export async function inputText(
  host: TextInputHost,
  param: ActionParams,
  signal: AbortSignal | undefined,
  overrides: InputActionOptions | undefined,
  secret?: { value: boolean },
): Promise<void> {
  const typing = typeSettings(overrides, host.typeDelay, host.inputStrategy);
  const target = readLocateParam("Input", param, false);
  // 'append' is the deprecated name of 'typeOnly' (spec 4.7); it is accepted, not advertised.
  const mode = readEnumParam("Input", param, "mode", [...INPUT_MODES, "append"], "replace");
  const value = mode === "clear"
    ? readStringParam("Input", param, "value", false)
    : readStringParam("Input", param, "value", true);
  if (target) await clickAt(host, target, signal);
  signal?.throwIfAborted();
  // A password field takes a secret: the SDK writes the value as *** wherever it records it.
  if (secret && !secret.value && (await editField(host, "isSecret"))) secret.value = true;
  if (mode === "typeOnly" || mode === "append") {
    if (!(await editField(host, "caretToEnd"))) await host.driver().keyboard.press("End");
    await type(host, value ?? "", typing, signal);
    return;
  }
  await selectAllInField(host, signal);
  if (mode === "clear" || value === "") {
    await host.driver().keyboard.press("Backspace");
  } else {
    // Typing over a selection replaces it, with the key and input events a user makes.
    await type(host, value ?? "", typing, signal);
  }
}

/** The `ClearInput` action: clicks the element, selects its value and deletes it. */
export async function clearInput(
  host: TextInputHost,
  param: ActionParams,
  signal: AbortSignal | undefined,
): Promise<void> {
  const target = readLocateParam("ClearInput", param, true);
  await clickAt(host, target, signal);
  await selectAllInField(host, signal);
  await host.driver().keyboard.press("Backspace");
}

async function type(
  host: TextInputHost,
  text: string,
  { delay, strategy }: TypeSettings,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (text === "") return;
  signal?.throwIfAborted();
  const keyboard = host.driver().keyboard;
  if (strategy === "bulk") return await keyboard.insertText(text);
  if (strategy === "legacy") {
    return await keyboard.type(text, delay > 0 ? { delayMs: delay } : undefined);
  }
  // 'sequential': one code point per call, so a surrogate pair (an emoji) stays whole.
  await typeCodePoints(text, delay, signal, (codePoint) => keyboard.type(codePoint));
}

async function selectAllInField(
  host: TextInputHost,
  signal: AbortSignal | undefined,
): Promise<void> {
  signal?.throwIfAborted();
  if (await editField(host, "selectAll")) return;
  // Not a text field the page script knows: the platform's select-all shortcut.
  const mac = await host.driver().evaluate<boolean>(
    "/Mac|iPhone|iPad/.test(navigator.platform)",
  ).catch(() => false);
  await host.driver().keyboard.press(mac ? "Meta+A" : "Control+A");
}

async function editField(host: TextInputHost, edit: FieldEdit): Promise<boolean> {
  return await host.driver().evaluate(editFocusedField, edit);
}
