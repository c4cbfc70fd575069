import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { keyForKeysym, keysymsOf, planKey, untypable } from "./keymap.ts";
import type { X11Keymap } from "./x11.ts";

/**
 * A German-like keymap as the core protocol shows it: keycode 8 on, 7 keysyms per keycode
 * (group 1 levels 1-2, group 2 levels 1-2, group 1 levels 3-4, one more).
 */
function keymap(): X11Keymap {
  const rows: Record<number, number[]> = {
    10: [0x31, 0x21, 0x31, 0x21, 0xb9, 0xa1], // 1 ! 1 ! onesuperior exclamdown
    24: [0x71, 0x51, 0x71, 0x51, 0x40, 0x1000000 + 0x3a9], // q Q q Q at Ω
    26: [0x65, 0x45, 0x65, 0x45, 0x20ac, 0x20ac], // e E e E EuroSign
    48: [0xe4, 0xc4, 0xe4, 0xc4], // adiaeresis Adiaeresis
    50: [0xffe1], // Shift_L
    18: [0x39, 0x28], // 9 parenleft
    65: [0x20], // space
    87: [0xffb1, 0xff9c], // KP_1 KP_End: the keypad is never used for "1"
    92: [0xfe03], // ISO_Level3_Shift
    187: [0x28], // parenleft of evdev's extra keys, which no RDP scancode reaches
  };
  const keysyms: number[][] = [];
  for (let k = 8; k <= 255; k++) {
    keysyms.push([...(rows[k] ?? []), 0, 0, 0, 0, 0, 0, 0].slice(0, 7));
  }
  const modifiers = [[50], [], [], [], [], [], [], [92]];
  return { minKeycode: 8, keysyms, modifiers };
}

test("characters map to the key that has them, with Shift, AltGr or both", {
  timeout: 10_000,
}, () => {
  const map = keymap();
  assert.deepEqual(planKey(map, "q"), { keycode: 24, modifiers: [] });
  assert.deepEqual(planKey(map, "Q"), { keycode: 24, modifiers: [50] });
  assert.deepEqual(planKey(map, "!"), { keycode: 10, modifiers: [50] });
  assert.deepEqual(planKey(map, "1"), { keycode: 10, modifiers: [] });
  assert.deepEqual(planKey(map, "@"), { keycode: 24, modifiers: [92] });
  assert.deepEqual(planKey(map, "€"), { keycode: 26, modifiers: [92] });
  assert.deepEqual(planKey(map, "Ω"), { keycode: 24, modifiers: [50, 92] });
  assert.deepEqual(planKey(map, "ä"), { keycode: 48, modifiers: [] });
  assert.deepEqual(planKey(map, "Ä"), { keycode: 48, modifiers: [50] });
  assert.deepEqual(planKey(map, " "), { keycode: 65, modifiers: [] });
  // The main block's key with Shift before an extra key without.
  assert.deepEqual(planKey(map, "("), { keycode: 18, modifiers: [50] });
  assert.equal(planKey(map, "你"), undefined);
  assert.deepEqual(untypable(map, "Qä 你好你\n"), ["你", "好"]);
  // Keys by their level 1 keysym: main block first.
  assert.equal(keyForKeysym(map, 0xffe1), 50);
  assert.equal(keyForKeysym(map, 0x28), 187);
  assert.equal(keyForKeysym(map, 0xff0d), undefined);
});

test("without an AltGr key, level 3 characters are not typable", { timeout: 10_000 }, () => {
  const map = keymap();
  map.modifiers[7] = [];
  assert.equal(planKey(map, "@"), undefined);
  assert.deepEqual(planKey(map, "!"), { keycode: 10, modifiers: [50] });
});

test("keysyms: Latin-1 is its code point, the euro sign EuroSign, the rest Unicode", {
  timeout: 10_000,
}, () => {
  assert.deepEqual(keysymsOf("a"), [0x61]);
  assert.deepEqual(keysymsOf("ß"), [0xdf]);
  assert.deepEqual(keysymsOf("€"), [0x20ac, 0x10020ac]);
  assert.deepEqual(keysymsOf("你"), [0x1004f60]);
  assert.deepEqual(keysymsOf("\u0007"), []);
});

test("with two layouts, levels 1 and 2 of the active group are typed; the rest is left to paste", {
  timeout: 10_000,
}, () => {
  // us,de as the core protocol shows it: group 2's levels 3 and 4 follow in columns 4 and 5.
  const rows: Record<number, number[]> = {
    29: [0x79, 0x59, 0x7a, 0x5a, 0x8fb, 0xa5], // y Y | z Z leftarrow yen
    52: [0x7a, 0x5a, 0x79, 0x59, 0xab, 0xbb], // z Z | y Y guillemotleft guillemotright
    48: [0x27, 0x22, 0xe4, 0xc4], // apostrophe quotedbl | adiaeresis Adiaeresis
    50: [0xffe1], // Shift_L
  };
  const keysyms: number[][] = [];
  for (let k = 8; k <= 255; k++) keysyms.push([...(rows[k] ?? []), 0, 0, 0, 0, 0, 0].slice(0, 6));
  const map: X11Keymap = { minKeycode: 8, keysyms, modifiers: [[50], [], [], [], [], [], [], []] };
  assert.deepEqual(planKey(map, "y", 0), { keycode: 29, modifiers: [] });
  assert.deepEqual(planKey(map, "y", 1), { keycode: 52, modifiers: [] });
  assert.deepEqual(planKey(map, "Z", 1), { keycode: 29, modifiers: [50] });
  assert.deepEqual(planKey(map, "Ä", 1), { keycode: 48, modifiers: [50] });
  assert.equal(planKey(map, "ä", 0), undefined, "group 2's letter is not in group 1");
  assert.equal(planKey(map, "¥", 1), undefined, "columns 4 and 5 may be either group's");
  assert.deepEqual(untypable(map, "yä", 2), ["y", "ä"], "a third group: everything is pasted");
});
