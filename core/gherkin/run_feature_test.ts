import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { fakeAgent } from "./_fake_agent.ts";
import { GherkinParseError, GherkinStepError } from "./errors.ts";
import {
  type GherkinScenarioInfo,
  type GherkinScenarioResult,
  runGherkinFeature,
} from "./run_feature.ts";

const FEATURE = [
  "Feature: todos", // 1
  "  Background:", // 2
  "    Given I sign in as alice", // 3
  "", // 4
  "  Scenario: empty list", // 5
  "    Then the list shows 'Nothing to do'", // 6
  "", // 7
  "  Scenario Outline: add <item>", // 8
  "    When I add the todo '<item>'", // 9
  "    Then the list shows '<item>'", // 10
  "", // 11
  "    Examples:", // 12
  "      | item |", // 13
  "      | milk |", // 14
  "      | eggs |", // 15
].join("\n");

test("every scenario and Examples row runs, Background first, with one result each", async () => {
  const agent = fakeAgent();
  const results = await runGherkinFeature(agent, FEATURE);
  assert.deepEqual(results.map((r) => [r.name, r.line, r.status]), [
    ["empty list", 5, "passed"],
    ["add milk", 14, "passed"],
    ["add eggs", 15, "passed"],
  ]);
  assert.ok(results.every((r) => r.error === undefined && r.durationMs >= 0));
  assert.deepEqual(agent.log(), [
    "aiAct I sign in as alice",
    "aiAssert the list shows 'Nothing to do'",
    "aiAct I sign in as alice",
    "aiAct I add the todo 'milk'",
    "aiAssert the list shows 'milk'",
    "aiAct I sign in as alice",
    "aiAct I add the todo 'eggs'",
    "aiAssert the list shows 'eggs'",
  ]);
});

test("a failing scenario does not stop the others; its error names the file, line and row", async () => {
  const agent = fakeAgent((c) =>
    c.prompt === "the list shows 'milk'" ? new Error("The list is empty.") : undefined
  );
  const seen: GherkinScenarioResult[] = [];
  const results = await runGherkinFeature(agent, FEATURE, {
    fileName: "todo.feature",
    onScenario: (r) => {
      seen.push(r);
    },
  });
  assert.deepEqual(results.map((r) => r.status), ["passed", "failed", "passed"]);
  assert.deepEqual(seen, results);
  const e = results[1].error;
  assert.ok(e instanceof GherkinStepError);
  assert.equal(e.gherkinLine, 10);
  assert.equal(e.examplesRowLine, 14);
  assert.equal(e.fileName, "todo.feature");
  assert.equal(e.step, "Then the list shows 'milk'");
  assert.equal(
    e.message,
    `Step failed at line 10 of todo.feature (Examples row at line 14): "Then the list shows 'milk'" ` +
      `(aiAssert "the list shows 'milk'"): The list is empty.`,
  );
});

test("failFast skips the scenarios after the first failure", async () => {
  const agent = fakeAgent((c) => c.api === "aiAssert" ? new Error("no") : undefined);
  const results = await runGherkinFeature(agent, FEATURE, { failFast: true });
  assert.deepEqual(results.map((r) => [r.status, r.durationMs === 0]), [
    ["failed", false],
    ["skipped", true],
    ["skipped", true],
  ]);
  assert.equal(agent.calls.length, 2);
});

test("beforeScenario runs before each scenario; what it throws fails that scenario only", async () => {
  const agent = fakeAgent();
  const infos: GherkinScenarioInfo[] = [];
  const results = await runGherkinFeature(agent, "@all\n" + FEATURE, {
    beforeScenario: (info) => {
      infos.push(info);
      if (info.index === 1) throw "page did not load";
    },
  });
  assert.deepEqual(infos.map((i) => [i.name, i.line, i.index, i.tags]), [
    ["empty list", 6, 0, ["@all"]],
    ["add milk", 15, 1, ["@all"]],
    ["add eggs", 16, 2, ["@all"]],
  ]);
  assert.deepEqual(results.map((r) => r.status), ["passed", "failed", "passed"]);
  assert.ok(results[1].error instanceof Error);
  assert.equal(results[1].error.message, "page did not load");
  assert.equal(agent.calls.length, 2 + 3);
});

test("options reach the calls of every scenario", async () => {
  const agent = fakeAgent();
  await runGherkinFeature(agent, FEATURE, { context: "ctx", deepLocate: true, fileName: "f" });
  assert.ok(
    agent.calls.every((c) =>
      c.api === "aiAct"
        ? c.options.context === "ctx" && c.options.deepLocate === true
        : JSON.stringify(c.options) === '{"context":"ctx"}'
    ),
  );
});

test("a scenario without steps fails with a message naming its line; the others run", async () => {
  const agent = fakeAgent();
  const results = await runGherkinFeature(
    agent,
    "Feature: f\n  Scenario: a\n    click the button\n  Scenario: b\n    Given b",
  );
  assert.deepEqual(results.map((r) => r.status), ["failed", "passed"]);
  assert.ok(results[0].error instanceof GherkinParseError);
  assert.match(results[0].error.message, /line 3, column 1: Scenario "a" has no steps/);
});

test("a syntax error rejects the whole run, naming the file", async () => {
  const agent = fakeAgent();
  await assert.rejects(
    runGherkinFeature(
      agent,
      "Feature: f\n  Scenario: a\n    Given a\n      | x |\n      | y | z |",
      {
        fileName: "bad.feature",
      },
    ),
    (e: unknown) => e instanceof GherkinParseError && /in bad\.feature at line 5/.test(e.message),
  );
  assert.deepEqual(agent.calls, []);
});

test("an abort rejects with the signal's reason; finished scenarios were reported", async () => {
  const controller = new AbortController();
  const agent = fakeAgent((c) => {
    if (c.prompt === "I add the todo 'milk'") {
      controller.abort(new Error("ctrl-c"));
      return controller.signal.reason;
    }
    return undefined;
  });
  const seen: string[] = [];
  await assert.rejects(
    runGherkinFeature(agent, FEATURE, {
      abortSignal: controller.signal,
      onScenario: (r) => {
        seen.push(`${r.name}: ${r.status}`);
      },
    }),
    /ctrl-c/,
  );
  assert.deepEqual(seen, ["empty list: passed"]);
  const pre = new AbortController();
  pre.abort(new Error("early"));
  await assert.rejects(runGherkinFeature(agent, FEATURE, { abortSignal: pre.signal }), /early/);
});
