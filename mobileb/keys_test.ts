import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { iosKeyText } from "./keys.ts";

test("iosKeyText: Return and Backspace as WDA types them, characters as themselves", () => {
  assert.equal(iosKeyText("Enter"), "\n");
  assert.equal(iosKeyText("return"), "\n");
  assert.equal(iosKeyText("Backspace"), "\b");
  assert.equal(iosKeyText("Tab"), "\t");
  assert.equal(iosKeyText("space"), " ");
  assert.equal(iosKeyText("a"), "a");
  assert.equal(iosKeyText("7"), "7");
  assert.equal(iosKeyText("é"), "é");
});

test("iosKeyText refuses combinations and keys without text, naming them", () => {
  assert.throws(() => iosKeyText("Control+A"), /combinations/);
  assert.throws(() => iosKeyText("Escape"), /"Escape".*has none/);
  assert.throws(() => iosKeyText("ArrowDown"), TypeError);
  assert.throws(() => iosKeyText("Home"), /home\(\)/);
});
