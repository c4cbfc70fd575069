import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { parseLogSelector } from "./selector.ts";

const CATEGORIES = ["sdk:model", "sdk:agent", "sdk:device", "sdk:report", "other:thing"];

/** The categories a selector picks out of {@link CATEGORIES}. */
const picked = (value: string | undefined) => CATEGORIES.filter(parseLogSelector(value));

test("an unset or empty DEBUG selects nothing", () => {
  assert.deepEqual(picked(undefined), []);
  assert.deepEqual(picked(""), []);
  assert.deepEqual(picked(" , "), []);
});

test("sdk:* selects every sdk category and nothing else", () => {
  assert.deepEqual(picked("sdk:*"), ["sdk:model", "sdk:agent", "sdk:device", "sdk:report"]);
  assert.deepEqual(picked("*"), CATEGORIES);
});

test("a plain name selects that category only, not a longer one", () => {
  assert.deepEqual(picked("sdk:model"), ["sdk:model"]);
  assert.deepEqual(picked("sdk:mod"), []);
  assert.equal(parseLogSelector("sdk:model")("sdk:modelx"), false);
});

test("lists split on commas and spaces", () => {
  assert.deepEqual(picked("sdk:model,sdk:device"), ["sdk:model", "sdk:device"]);
  assert.deepEqual(picked("sdk:model sdk:report"), ["sdk:model", "sdk:report"]);
  assert.deepEqual(picked(" sdk:agent ,  other:thing "), ["sdk:agent", "other:thing"]);
});

test("an exclusion wins over an inclusion, in any order", () => {
  assert.deepEqual(picked("sdk:*,-sdk:model"), ["sdk:agent", "sdk:device", "sdk:report"]);
  assert.deepEqual(picked("-sdk:model sdk:*"), ["sdk:agent", "sdk:device", "sdk:report"]);
  assert.deepEqual(picked("*,-sdk:*"), ["other:thing"]);
  assert.deepEqual(picked("-sdk:model"), [], "exclusions alone select nothing");
});

test("regular-expression characters in a name are literal", () => {
  assert.equal(parseLogSelector("sdk.model")("sdk:model"), false);
  assert.equal(parseLogSelector("sdk:(model)")("sdk:(model)"), true);
});
