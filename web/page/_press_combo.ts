/**
 * Presses `Mod+...+Key` combinations the same way on every driver (the port's
 * `PageDriverKeyboard.press` contract): modifiers go down in order, the key is pressed, and the
 * modifiers come up in reverse order, also when the key is unknown, so a failed press never
 * leaves a modifier held. Private to the package.
 *
 * @module
 */

import { SdkTypeError } from "../_core.ts";

const MODIFIER_KEYS: ReadonlySet<string> = new Set(["Control", "Shift", "Alt", "Meta"]);

/** The key primitives a driver's keyboard has. */
export interface KeyPrimitives {
  /** Holds a key down. */
  down(key: string): Promise<void>;
  /** Releases a held key. */
  up(key: string): Promise<void>;
  /** Presses and releases one key; rejects for a key name the driver does not know. */
  press(key: string): Promise<void>;
}

/**
 * Presses `combo` through `keys`.
 *
 * @throws {SdkTypeError} when a part before the last is not a modifier; the driver's error when it
 * rejects the key.
 */
export async function pressCombo(keys: KeyPrimitives, combo: string): Promise<void> {
  const parts = splitCombo(combo);
  const key = parts.pop()!;
  for (const modifier of parts) {
    if (!MODIFIER_KEYS.has(modifier)) {
      throw new SdkTypeError(`Cannot press '${combo}': '${modifier}' is not a modifier`);
    }
  }
  const down: string[] = [];
  try {
    for (const modifier of parts) {
      await keys.down(modifier);
      down.push(modifier);
    }
    await keys.press(key);
  } finally {
    for (const modifier of down.reverse()) await keys.up(modifier);
  }
}

/** `"Control+A"` -> `["Control", "A"]`; `"Control++"` -> `["Control", "+"]`; `"+"` -> `["+"]`. */
function splitCombo(combo: string): string[] {
  if (combo === "+") return ["+"];
  if (combo.endsWith("++")) return [...combo.slice(0, -2).split("+"), "+"];
  return combo.split("+");
}
