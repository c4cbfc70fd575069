import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { parsePredicate, PredicateSyntaxError, UnknownKeyError } from "./_wda_predicate.ts";
import type { SourceNode } from "./_wda_source.ts";

function node(fields: Partial<SourceNode>): SourceNode {
  return {
    type: "XCUIElementTypeButton",
    name: "save",
    label: "Save Änderung",
    value: null,
    identifier: "save",
    enabled: true,
    visible: true,
    selected: false,
    focused: false,
    placeholder: null,
    rect: { x: 10, y: 20, width: 100, height: 40 },
    ref: "1",
    children: [],
    ...fields,
  };
}

const matches = (format: string, fields: Partial<SourceNode> = {}, index = 0) =>
  parsePredicate(format)({ node: node(fields), index });

test("predicates: comparisons, string operators with [cd], lists, compounds, key paths", () => {
  assert.equal(matches("type == 'XCUIElementTypeButton'"), true);
  assert.equal(matches('name != "save"'), false);
  assert.equal(matches("label CONTAINS[cd] 'anderung'"), true);
  assert.equal(matches("label CONTAINS 'anderung'"), false);
  assert.equal(matches("label BEGINSWITH 'Save' AND NOT (label ENDSWITH 'x')"), true);
  assert.equal(matches("label LIKE 'S?ve*'"), true);
  assert.equal(matches("label MATCHES 'Save .*'"), true);
  assert.equal(matches("name IN {'open', 'save'}"), true);
  assert.equal(matches("enabled == 1 && visible == YES || FALSEPREDICATE"), true);
  assert.equal(matches("wdEnabled == false"), false);
  assert.equal(matches("isWDVisible == TRUE"), true);
  assert.equal(matches("value == nil"), true);
  assert.equal(matches("rect.width > 50 AND rect.y BETWEEN {0, 20}"), true);
  assert.equal(matches("index == 2", {}, 2), true);
  assert.equal(matches("accessible == 1"), true);
  assert.equal(matches("accessible == 1", { type: "XCUIElementTypeOther" }), false);
  assert.equal(matches("TRUEPREDICATE"), true);
});

test("predicates that do not parse or name unknown keys fail as NSPredicate and KVC do", () => {
  assert.throws(() => parsePredicate("label =="), PredicateSyntaxError);
  assert.throws(() => parsePredicate("label == 'open"), /Unable to parse the format string/);
  assert.throws(() => parsePredicate("(label == 'a'"), PredicateSyntaxError);
  assert.throws(() => parsePredicate("label SOUNDSLIKE 'a'"), PredicateSyntaxError);
  assert.throws(() => parsePredicate(""), PredicateSyntaxError);
  assert.throws(
    () => parsePredicate("color == 'red'"),
    (e: Error) =>
      e instanceof UnknownKeyError && /coding-compliant for the key color/.test(e.message),
  );
});
