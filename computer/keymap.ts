/**
 * Typing by the X server's active keymap: which key, with which modifiers, gives a character.
 * The keymap is the core protocol's view of XKB (`GetKeyboardMapping`): per keycode, the
 * keysyms of group 1 level 1 and 2 (columns 0, 1), group 2 (2, 3), then the further levels of
 * group 1 and after them those of group 2 (from 4). Level 2 is Shift, level 3 the key that
 * carries `ISO_Level3_Shift` (AltGr), level 4 both. With one layout, group 2's columns repeat
 * group 1's and columns 4, 5 are its levels 3 and 4. With several, which group the columns from 4
 * belong to differs by key, so only levels 1 and 2 of the active group are typed.
 *
 * Names and numbers only: nothing here talks to a server, so the planning is unit-tested.
 *
 * @module
 */

import type { X11Keymap } from "./x11.ts";

/** `ISO_Level3_Shift`, the AltGr key's keysym. */
const LEVEL3_SHIFT = 0xfe03;
/** The last keycode of a PC keyboard's main block under evdev (code 127 + 8). */
const MAIN_BLOCK_END = 135;
/** `Shift_L`, `Shift_R`. */
const SHIFTS = [0xffe1, 0xffe2];

/** A key press that types one character: modifier keycodes first, then the key's. */
export interface KeyPlan {
  /** The keycode of the character's key. */
  keycode: number;
  /** Keycodes held down around it (Shift, AltGr), in press order. */
  modifiers: number[];
}

/**
 * The keysyms a character can have: Latin-1 (U+0020-U+007E, U+00A0-U+00FF) is its own code
 * point, the euro sign has the legacy `EuroSign`, and any character has its Unicode keysym
 * (0x1000000 + code point).
 */
export function keysymsOf(char: string): number[] {
  const cp = char.codePointAt(0)!;
  const found: number[] = [];
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) found.push(cp);
  if (cp === 0x20ac) found.push(0x20ac);
  if (cp > 0xff) found.push(0x1000000 + cp);
  return found;
}

/** Whether a keysym is one of the keypad's (`KP_*`), whose level 2 is Num Lock, not Shift. */
function keypad(keysym: number): boolean {
  return keysym >= 0xff80 && keysym <= 0xffbd;
}

/** The keycode of a modifier key: the one of the Shift modifier, or the AltGr key. */
function modifierKey(keymap: X11Keymap, keysyms: readonly number[]): number | undefined {
  const mapped = new Set(keymap.modifiers.flat());
  for (let k = 0; k < keymap.keysyms.length; k++) {
    const code = keymap.minKeycode + k;
    if (mapped.has(code) && keymap.keysyms[k].some((s) => keysyms.includes(s))) return code;
  }
  return undefined;
}

/** Whether the keymap has more than one group (layout): group 2's columns differ from group 1's. */
function hasGroups(keymap: X11Keymap): boolean {
  return keymap.keysyms.some((row) =>
    (row[2] ?? 0) !== 0 && (row[2] !== row[0] || (row[3] ?? 0) !== (row[1] ?? 0))
  );
}

/** The columns of the levels `group` types and the modifiers each needs. */
function levelsOf(
  keymap: X11Keymap,
  group: number,
  shift: number | undefined,
): [number, (number | undefined)[]][] {
  if (!hasGroups(keymap)) {
    const level3 = modifierKey(keymap, [LEVEL3_SHIFT]);
    return [[0, []], [1, [shift]], [4, [level3]], [5, [shift, level3]]];
  }
  if (group > 1) return [];
  return [[2 * group, []], [2 * group + 1, [shift]]];
}

/**
 * How to type `char` with the keymap in the active `group` (0 for the first layout): the key
 * that has it at the lowest level, with Shift for level 2, AltGr for level 3 and both for level
 * 4; `undefined` when no key has it at a level the SDK can reach (behind a dead key, at level 3
 * or 4 or in a third group of a keymap with several layouts, or not on the keymap at all: CJK,
 * emoji).
 */
export function planKey(keymap: X11Keymap, char: string, group = 0): KeyPlan | undefined {
  const wanted = keysymsOf(char);
  if (wanted.length === 0) return undefined;
  const shift = modifierKey(keymap, SHIFTS);
  const levels = levelsOf(keymap, group, shift);
  // The keys of a PC keyboard's main block first (evdev codes 1-127, keycodes 9-135), at any
  // level: extra keys that repeat a character (`parenleft` on keycode 187) have no scancode an
  // RDP client could send.
  for (const main of [true, false]) {
    for (const [column, modifiers] of levels) {
      if (modifiers.some((m) => m === undefined)) continue;
      for (let k = 0; k < keymap.keysyms.length; k++) {
        const keycode = keymap.minKeycode + k;
        if ((keycode <= MAIN_BLOCK_END) !== main) continue;
        const row = keymap.keysyms[k];
        if (keypad(row[0]) || !wanted.includes(row[column] ?? 0)) continue;
        return { keycode, modifiers: modifiers as number[] };
      }
    }
  }
  return undefined;
}

/** The characters of `text` that {@link planKey} cannot type in `group`, each once, in order. */
export function untypable(keymap: X11Keymap, text: string, group = 0): string[] {
  const missing: string[] = [];
  for (const char of text) {
    if (char === "\n" || char === "\t") continue;
    if (!missing.includes(char) && !planKey(keymap, char, group)) missing.push(char);
  }
  return missing;
}

/**
 * The keycode of a key with `keysym` at level 1 (`Return`, `Control_L`, `v`), main-block keys
 * first, or `undefined`.
 */
export function keyForKeysym(keymap: X11Keymap, keysym: number): number | undefined {
  let other: number | undefined;
  for (let k = 0; k < keymap.keysyms.length; k++) {
    if (keymap.keysyms[k][0] !== keysym) continue;
    const keycode = keymap.minKeycode + k;
    if (keycode <= MAIN_BLOCK_END) return keycode;
    other ??= keycode;
  }
  return other;
}
