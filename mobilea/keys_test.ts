import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { androidKeyCode } from "./keys.ts";

test("androidKeyCode maps the shared key names to Android key codes", () => {
  assert.equal(androidKeyCode("Enter"), 66);
  assert.equal(androidKeyCode("return"), 66);
  assert.equal(androidKeyCode("Esc"), 111);
  assert.equal(androidKeyCode("backspace"), 67);
  assert.equal(androidKeyCode("ArrowDown"), 20);
  assert.equal(androidKeyCode("down"), 20);
  assert.equal(androidKeyCode("Back"), 4);
  assert.equal(androidKeyCode("a"), 29);
  assert.equal(androidKeyCode("Z"), 54);
  assert.equal(androidKeyCode("7"), 14);
  assert.equal(androidKeyCode("F1"), 131);
  assert.equal(androidKeyCode("+"), 81);
});

test("androidKeyCode refuses combinations and unknown keys, naming them", () => {
  assert.throws(() => androidKeyCode("Control+A"), /"Control\+A".*combinations/);
  assert.throws(() => androidKeyCode("Hyper"), /"Hyper".*no Android key code/);
  assert.throws(() => androidKeyCode(""), TypeError);
});
