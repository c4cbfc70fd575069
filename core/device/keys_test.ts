import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { normalizeKeyCombo } from "./keys.ts";

test("normalizeKeyCombo() keeps canonical names and combinations", () => {
  for (const combo of ["Enter", "Tab", "Escape", "a", "A", "Control+A", "Shift+Tab", "ArrowDown"]) {
    assert.equal(normalizeKeyCombo(combo), combo);
  }
});

test("normalizeKeyCombo() spells loose modifier and key names the KeyboardEvent.key way", () => {
  assert.equal(normalizeKeyCombo("ctrl+a"), "Control+a");
  assert.equal(normalizeKeyCombo(" Ctrl + Shift + T "), "Control+Shift+T");
  assert.equal(normalizeKeyCombo("cmd+Enter"), "Meta+Enter");
  assert.equal(normalizeKeyCombo("Option+left"), "Alt+ArrowLeft");
  assert.equal(normalizeKeyCombo("esc"), "Escape");
  assert.equal(normalizeKeyCombo("RETURN"), "Enter");
  assert.equal(normalizeKeyCombo("pgdn"), "PageDown");
  assert.equal(normalizeKeyCombo("f5"), "F5");
  assert.equal(normalizeKeyCombo("ctrl"), "Control");
});

test("normalizeKeyCombo() treats '+' as a key where it cannot be a separator", () => {
  assert.equal(normalizeKeyCombo("+"), "+");
  assert.equal(normalizeKeyCombo("Control++"), "Control++");
  assert.equal(normalizeKeyCombo("Control + +"), "Control++");
});

test("normalizeKeyCombo() throws a TypeError for an empty part or a non-modifier prefix", () => {
  assert.throws(() => normalizeKeyCombo(""), TypeError);
  assert.throws(() => normalizeKeyCombo("Control+"), TypeError);
  assert.throws(() => normalizeKeyCombo("Enter+A"), /'?"Enter"'? .*is not a modifier/);
});
