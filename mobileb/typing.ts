/**
 * Typing through WDA's keys endpoint (`POST /session/:id/wda/keys`) following the device's
 * `inputStrategy` and `keyboardTypeDelay`, emptying the focused field, and dismissing the
 * keyboard.
 *
 * @module
 */

import type { InputActionOptions, InputStrategy } from "@sdk/core";
import { typeCodePoints, typeSettings } from "@sdk/core";
import { log } from "./log.ts";
import type { WdaSession } from "./session.ts";
import { driverAnswerOf } from "./wda.ts";

// Backspaces typed to empty a field when WDA cannot clear the focused element itself.
const CLEAR_BACKSPACES = 100;
// The W3C element reference key in WDA's element answers.
const ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";

/** How the device types, from its options. */
export interface TypingSettings {
  /** The device's `keyboardTypeDelay`. */
  readonly typeDelay: number | undefined;
  /** The device's `inputStrategy`. */
  readonly inputStrategy: InputStrategy;
}

/** Types `text` in one keys call, one code point per key. */
export async function keys(session: WdaSession, text: string, signal?: AbortSignal): Promise<void> {
  const path = await session.path();
  await session.client.request("POST", `${path}/wda/keys`, { value: [...text] }, { signal });
}

/** Types `text` into the focused field, with the action's overrides of the device's settings. */
export async function typeText(
  session: WdaSession,
  settings: TypingSettings,
  text: string,
  overrides: InputActionOptions | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const { delay, strategy } = typeSettings(overrides, settings.typeDelay, settings.inputStrategy);
  if (text === "") return;
  if (strategy === "bulk") {
    const path = await session.path();
    await session.client.request("POST", `${path}/wda/keys`, { value: [text] }, { signal });
    return;
  }
  if (strategy === "legacy" && delay === 0) {
    await keys(session, text, signal);
    return;
  }
  await typeCodePoints(text, delay, signal, (codePoint) => keys(session, codePoint, signal));
}

/**
 * Empties the focused field: WDA's clear of the active element, or backspaces where the driver
 * cannot (no focused element it knows, or no such route).
 */
export async function clearField(session: WdaSession): Promise<void> {
  const path = await session.path();
  try {
    const active = await session.client.request("GET", `${path}/element/active`);
    const ref = active as Record<string, unknown> | null;
    const id = ref?.[ELEMENT_KEY] ?? ref?.ELEMENT;
    if (typeof id === "string") {
      await session.client.request("POST", `${path}/element/${encodeURIComponent(id)}/clear`);
      return;
    }
  } catch (error) {
    // WDA refused (no focused element it knows, or no such route): backspaces instead.
    if (!driverAnswerOf(error)) throw error;
  }
  await keys(session, "\b".repeat(CLEAR_BACKSPACES));
}

/**
 * Dismisses the keyboard. WDA refuses to dismiss a keyboard that has no dismiss key (many iPhone
 * layouts); that is logged, not an error of the input.
 */
export async function dismissKeyboard(session: WdaSession): Promise<void> {
  const path = await session.path();
  try {
    await session.client.request("POST", `${path}/wda/keyboard/dismiss`, {});
  } catch (error) {
    if (!driverAnswerOf(error)) throw error;
    log("keyboard not dismissed", { error: (error as Error).message });
  }
}
