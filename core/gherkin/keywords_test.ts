import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { GherkinKeywordType, GherkinStep } from "./types.ts";
import { stepActions, stepApis, stepPrompt } from "./keywords.ts";

const kinds = (...types: GherkinKeywordType[]) => types.map((keywordType) => ({ keywordType }));

test("Context and Action keywords run aiAct, Outcome runs aiAssert", () => {
  assert.deepEqual(stepApis(kinds("Context", "Action", "Outcome")), [
    "aiAct",
    "aiAct",
    "aiAssert",
  ]);
});

test("And, But and * (Conjunction, Unknown) take the call of the step before them", () => {
  assert.deepEqual(
    stepApis(kinds("Context", "Conjunction", "Action", "Unknown", "Outcome", "Conjunction")),
    ["aiAct", "aiAct", "aiAct", "aiAct", "aiAssert", "aiAssert"],
  );
  assert.deepEqual(stepApis(kinds("Outcome", "Unknown", "Action", "Conjunction")), [
    "aiAssert",
    "aiAssert",
    "aiAct",
    "aiAct",
  ]);
});

test("a leading And or * runs aiAct", () => {
  assert.deepEqual(stepApis(kinds("Conjunction", "Outcome")), ["aiAct", "aiAssert"]);
  assert.deepEqual(stepApis(kinds("Unknown")), ["aiAct"]);
});

test("a step's prompt is its text alone when it has no argument", () => {
  assert.equal(stepPrompt({ text: "I add the todo 'x'" }), "I add the todo 'x'");
});

test("a DocString is appended between triple-quote lines, with its media type", () => {
  assert.equal(
    stepPrompt({ text: "I type into the comment box:", docString: { content: "Hi\n  there" } }),
    'I type into the comment box:\n"""\nHi\n  there\n"""',
  );
  assert.equal(
    stepPrompt({ text: "the payload is", docString: { content: '{"a":1}', mediaType: "json" } }),
    'the payload is\n"""json\n{"a":1}\n"""',
  );
  // Content holding """ is fenced with backticks instead.
  assert.equal(
    stepPrompt({ text: "t", docString: { content: 'say """hi"""' } }),
    't\n```\nsay """hi"""\n```',
  );
});

test("a data table is appended as Gherkin rows, cells escaped", () => {
  assert.equal(
    stepPrompt({
      text: "I add these todos:",
      dataTable: [["item", "note"], ["milk", "a|b"], ["eggs", "back\\slash"]],
    }),
    "I add these todos:\n| item | note |\n| milk | a\\|b |\n| eggs | back\\\\slash |",
  );
});

test("stepActions pairs each step's call with its prompt", () => {
  const steps: GherkinStep[] = [
    { line: 1, keyword: "Given ", keywordType: "Context", text: "a" },
    { line: 2, keyword: "Then ", keywordType: "Outcome", text: "b", docString: { content: "c" } },
    { line: 5, keyword: "But ", keywordType: "Conjunction", text: "d" },
  ];
  assert.deepEqual(stepActions(steps), [
    { api: "aiAct", prompt: "a" },
    { api: "aiAssert", prompt: 'b\n"""\nc\n"""' },
    { api: "aiAssert", prompt: "d" },
  ]);
});
