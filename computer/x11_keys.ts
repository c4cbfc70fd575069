/**
 * Key presses on the device's own X connection (XTEST), by the server's keymap: one character's
 * key with its modifiers, Control+V, and text typed with Caps Lock turned off meanwhile.
 *
 * @module
 */

import { InvalidStateError, sleep } from "@sdk/core";
import { keyForKeysym, type KeyPlan, planKey } from "./keymap.ts";
import type { X11Connection, X11Keymap } from "./x11.ts";

/** ms between a key's release and its next press, so X does not report them as autorepeat. */
const REPRESS_GAP_MS = 3;
/** The index of the Lock modifier in {@link X11Keymap.modifiers}. */
const LOCK = 1;
const CONTROL_L = 0xffe3;
const RETURN = 0xff0d;
const TAB = 0xff09;

/** Presses keys of the keymap through XTEST, in order with everything else on the connection. */
export class X11Keys {
  readonly #x11: () => Promise<X11Connection>;
  readonly #modifierPause: () => Promise<void>;
  /** When each keycode was last released (`Date.now()`). */
  readonly #released = new Map<number, number>();

  /**
   * @param x11 the device's X connection, opened on first use.
   * @param modifierPause waits `keyboardModifierDelay` after each modifier press and release.
   */
  constructor(x11: () => Promise<X11Connection>, modifierPause: () => Promise<void>) {
    this.#x11 = x11;
    this.#modifierPause = modifierPause;
  }

  /**
   * The key plan of one character in `group`: Return and Tab by their keysyms, any other
   * character by {@link planKey}; `undefined` when no key types it.
   */
  plan(keymap: X11Keymap, char: string, group: number): KeyPlan | undefined {
    const named = char === "\n" ? RETURN : char === "\t" ? TAB : undefined;
    const key = named === undefined ? undefined : keyForKeysym(keymap, named);
    return key !== undefined ? { keycode: key, modifiers: [] } : planKey(keymap, char, group);
  }

  /**
   * Presses Control+V; `false` (nothing pressed) when the keymap has no Control_L or no
   * unshifted `v`.
   */
  async controlV(): Promise<boolean> {
    const keymap = await (await this.#x11()).keymap();
    const control = keyForKeysym(keymap, CONTROL_L);
    const v = planKey(keymap, "v");
    if (control === undefined || !v || v.modifiers.length > 0) return false;
    await this.press({ keycode: v.keycode, modifiers: [control] });
    return true;
  }

  /**
   * Runs `typing` with Caps Lock off, then turns it on again when it was on (`capsLock`, read
   * just before): the levels a key gives under Lock depend on the key's XKB type (a German ß
   * becomes ẞ), which the core keymap does not tell, so the plans assume no Lock.
   *
   * @throws {InvalidStateError} when Lock is on and no key of the keymap holds it.
   */
  async withCapsLockOff<T>(
    keymap: X11Keymap,
    capsLock: boolean,
    typing: () => Promise<T>,
  ): Promise<T> {
    if (!capsLock) return await typing();
    const lock = keymap.modifiers[LOCK]?.[0];
    if (lock === undefined) {
      throw new InvalidStateError(
        "Cannot type key by key: Caps Lock is on and no key of the X server's keymap holds " +
          "the Lock modifier to turn it off. Turn Caps Lock off, or type with inputStrategy 'bulk'",
      );
    }
    await this.press({ keycode: lock, modifiers: [] });
    try {
      return await typing();
    } finally {
      await this.press({ keycode: lock, modifiers: [] });
    }
  }

  /** Presses a key of the keymap with its modifiers (Shift, AltGr), pausing after each. */
  async press(plan: KeyPlan): Promise<void> {
    const x11 = await this.#x11();
    const press = async (keycode: number) => {
      // A release and a press of the same key in the same millisecond is how X reports
      // autorepeat: xfreerdp then drops both (a doubled space arrived once over RDP).
      const since = Date.now() - (this.#released.get(keycode) ?? 0);
      if (since < REPRESS_GAP_MS) await sleep(REPRESS_GAP_MS - since);
      x11.fakeKey(keycode, true);
    };
    const release = async (keycode: number) => {
      x11.fakeKey(keycode, false);
      await x11.sync();
      this.#released.set(keycode, Date.now());
      await this.#modifierPause();
    };
    for (const modifier of plan.modifiers) {
      await press(modifier);
      await x11.sync();
      await this.#modifierPause();
    }
    try {
      await press(plan.keycode);
      await release(plan.keycode);
    } finally {
      for (const modifier of [...plan.modifiers].reverse()) await release(modifier);
    }
  }
}
