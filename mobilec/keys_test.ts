import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { harmonyKeyEvent } from "./keys.ts";

test("key names map to HarmonyOS key codes, system keys to uitest's names", () => {
  assert.equal(harmonyKeyEvent("Enter"), "2054");
  assert.equal(harmonyKeyEvent("esc"), "2070");
  assert.equal(harmonyKeyEvent("Backspace"), "2055");
  assert.equal(harmonyKeyEvent("arrowdown"), "2013");
  assert.equal(harmonyKeyEvent("a"), "2017");
  assert.equal(harmonyKeyEvent("Z"), "2042");
  assert.equal(harmonyKeyEvent("7"), "2007");
  assert.equal(harmonyKeyEvent("back"), "Back");
  assert.equal(harmonyKeyEvent("Power"), "Power");
});

test("combinations and keys without a code of their own are refused", () => {
  assert.throws(() => harmonyKeyEvent("ctrl+a"), /key combinations with modifiers/);
  assert.throws(() => harmonyKeyEvent("?"), /not a key name MobileC knows/);
  assert.throws(() => harmonyKeyEvent("F13"), /not a key name MobileC knows/);
});
