import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { AssertionError, PlanningError } from "../errors.ts";
import { fakeAgent } from "./_fake_agent.ts";
import { GherkinParseError, GherkinStepError } from "./errors.ts";
import { type GherkinAgent, runGherkinScenario } from "./run_scenario.ts";
import type { Agent } from "../agent/agent.ts";

test("Given/When run aiAct, Then runs aiAssert, And/But/* take the keyword before them", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(
    agent,
    `Scenario: keywords
      Given I open the app
        And I sign in
      When I add the todo 'x'
        * I add the todo 'y'
      Then the list shows 'x'
        And the list shows 'y'
        But the list does not show 'z'
        * the counter says 2`,
  );
  assert.deepEqual(agent.log(), [
    "aiAct I open the app",
    "aiAct I sign in",
    "aiAct I add the todo 'x'",
    "aiAct I add the todo 'y'",
    "aiAssert the list shows 'x'",
    "aiAssert the list shows 'y'",
    "aiAssert the list does not show 'z'",
    "aiAssert the counter says 2",
  ]);
  // aiAssert gets no errorMsg: the step error carries the Gherkin details.
  assert.ok(agent.calls.every((c) => c.api === "aiAct" || c.errorMsg === undefined));
});

test("steps without a Scenario: header run", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(agent, "Given a\nWhen b\nThen c");
  assert.deepEqual(agent.log(), ["aiAct a", "aiAct b", "aiAssert c"]);
});

test("French keywords (Soit / Quand / Alors / Et / Mais) map by their kind", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(
    agent,
    `# language: fr
     Soit je suis sur la page de connexion
     Quand je me connecte
     Et j'ajoute 'lait'
     Alors la liste affiche 'lait'
     Mais la liste n'affiche pas 'oeufs'`,
  );
  assert.deepEqual(agent.log(), [
    "aiAct je suis sur la page de connexion",
    "aiAct je me connecte",
    "aiAct j'ajoute 'lait'",
    "aiAssert la liste affiche 'lait'",
    "aiAssert la liste n'affiche pas 'oeufs'",
  ]);
});

test("another language's keywords: German Angenommen / Wenn / Dann / Und", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(
    agent,
    "# language: de\nAngenommen a\nWenn b\nDann c\nUnd d",
  );
  assert.deepEqual(agent.log(), ["aiAct a", "aiAct b", "aiAssert c", "aiAssert d"]);
});

test("Background steps run first", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(
    agent,
    `Feature: todos
      Background:
        Given I am signed in
      Scenario: add
        When I add 'x'
        Then I see 'x'`,
  );
  assert.deepEqual(agent.log(), ["aiAct I am signed in", "aiAct I add 'x'", "aiAssert I see 'x'"]);
});

test("a DocString and a data table are appended to the step's prompt", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(
    agent,
    'When I type into the comment box:\n  """\n  Line one\n  Line two\n  """\nThen the table shows\n  | item | done |\n  | milk | no   |',
  );
  assert.deepEqual(agent.log(), [
    'aiAct I type into the comment box:\n"""\nLine one\nLine two\n"""',
    "aiAssert the table shows\n| item | done |\n| milk | no |",
  ]);
});

test("context goes to every call; deepThink and deepLocate to aiAct only", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(agent, "Given a\nThen b", {
    context: "The app is a todo list.",
    deepThink: true,
    deepLocate: true,
  });
  assert.deepEqual(agent.calls.map((c) => c.options), [
    { context: "The app is a todo list.", deepThink: true, deepLocate: true },
    { context: "The app is a todo list." },
  ]);
});

test("an empty context is passed (it clears the agent's contexts); none passes no key", async () => {
  const agent = fakeAgent();
  await runGherkinScenario(agent, "Given a\nThen b", { context: "", deepThink: "unset" });
  assert.deepEqual(agent.calls.map((c) => c.options), [
    { context: "", deepThink: "unset" },
    { context: "" },
  ]);
  const plain = fakeAgent();
  await runGherkinScenario(plain, "Given a\nThen b");
  assert.deepEqual(plain.calls.map((c) => c.options), [{}, {}]);
});

test("an aborted signal rejects with its reason before any step runs", async () => {
  const agent = fakeAgent();
  const controller = new AbortController();
  controller.abort(new Error("stop now"));
  await assert.rejects(
    runGherkinScenario(agent, "Given a", { abortSignal: controller.signal }),
    /stop now/,
  );
  assert.deepEqual(agent.calls, []);
});

test("aiAct gets the abortSignal; an abort during a step rejects with the reason, unwrapped", async () => {
  const controller = new AbortController();
  const reason = new Error("user cancelled");
  const agent = fakeAgent((call) => {
    if (call.prompt !== "b") return undefined;
    assert.equal(call.api === "aiAct" && call.options.abortSignal, controller.signal);
    controller.abort(reason);
    return reason; // what aiAct does: its loop stops with the signal's reason
  });
  const e = await runGherkinScenario(agent, "Given a\nWhen b\nThen c", {
    abortSignal: controller.signal,
  }).catch((e) => e);
  assert.equal(e, reason);
  assert.deepEqual(agent.log(), ["aiAct a", "aiAct b"]);
});

test("an abort during an aiAssert stops the run before the next step, even if it passed", async () => {
  const controller = new AbortController();
  const agent = fakeAgent((call) => {
    if (call.api === "aiAssert") controller.abort(new Error("enough"));
    return undefined;
  });
  await assert.rejects(
    runGherkinScenario(agent, "Given a\nThen b\nWhen c", { abortSignal: controller.signal }),
    /enough/,
  );
  assert.deepEqual(agent.log(), ["aiAct a", "aiAssert b"]);
  // As the last step, too: an aborted run never resolves as passed.
  const last = new AbortController();
  const agent2 = fakeAgent((call) => {
    if (call.api === "aiAssert") last.abort(new Error("late"));
    return undefined;
  });
  await assert.rejects(
    runGherkinScenario(agent2, "Given a\nThen b", { abortSignal: last.signal }),
    /late/,
  );
});

test("a failing Then throws a GherkinStepError with the line, the step and the action", async () => {
  const cause = new AssertionError("the list shows 'x'", undefined, "The list is empty.");
  const agent = fakeAgent((call) => call.api === "aiAssert" ? cause : undefined);
  const e = await runGherkinScenario(
    agent,
    [
      "Feature: todos", // 1
      "", // 2
      "  Scenario: add", // 3
      "    Given I sign in", // 4
      "    Then the list shows 'x'", // 5
      "    And the counter says 1", // 6
    ].join("\n"),
  ).catch((e) => e);
  assert.ok(e instanceof GherkinStepError);
  assert.equal(e.gherkinLine, 5);
  assert.equal(e.step, "Then the list shows 'x'");
  assert.deepEqual(e.action, { api: "aiAssert", prompt: "the list shows 'x'" });
  assert.equal(e.cause, cause);
  assert.equal(e.scenario, "add");
  assert.equal(e.examplesRowLine, undefined);
  assert.equal(e.name, "GherkinStepError");
  assert.equal(
    e.message,
    `Step failed at line 5: "Then the list shows 'x'" (aiAssert "the list shows 'x'"): ` +
      cause.message,
  );
  // The steps after the failing one do not run.
  assert.deepEqual(agent.log(), ["aiAct I sign in", "aiAssert the list shows 'x'"]);
});

test("a failing And step reports its own keyword and the action it inherited", async () => {
  const cause = new PlanningError("There is no Add button.");
  const agent = fakeAgent((call) => call.prompt === "I add 'x'" ? cause : undefined);
  const e = await runGherkinScenario(agent, "Given I sign in\n  And I add 'x'").catch((e) => e);
  assert.ok(e instanceof GherkinStepError);
  assert.equal(e.gherkinLine, 2);
  assert.equal(e.step, "And I add 'x'");
  assert.deepEqual(e.action, { api: "aiAct", prompt: "I add 'x'" });
  assert.match(
    e.message,
    /^Step failed at line 2: "And I add 'x'" \(aiAct "I add 'x'"\): There is no Add button\.$/,
  );
});

test("a failing step of a one-row outline names the row's values and its Examples line", async () => {
  const agent = fakeAgent((call) => call.api === "aiAssert" ? new Error("nope") : undefined);
  const e = await runGherkinScenario(
    agent,
    [
      "Scenario Outline: add <item>", // 1
      "  When I add '<item>'", // 2
      "  Then the list shows '<item>'", // 3
      "  Examples:", // 4
      "    | item |", // 5
      "    | milk |", // 6
    ].join("\n"),
  ).catch((e) => e);
  assert.ok(e instanceof GherkinStepError);
  assert.equal(e.gherkinLine, 3);
  assert.equal(e.examplesRowLine, 6);
  assert.equal(e.step, "Then the list shows 'milk'");
  assert.equal(e.scenario, "add milk");
  assert.match(e.message, /^Step failed at line 3 \(Examples row at line 6\): /);
});

test("a thrown non-Error is kept as the cause", async () => {
  const agent = fakeAgent(() => "plain string");
  const e = await runGherkinScenario(agent, "When a").catch((e) => e);
  assert.ok(e instanceof GherkinStepError);
  assert.equal(e.cause, "plain string");
  assert.match(e.message, /: plain string$/);
});

test("a text with several scenarios or outline rows is an error naming runGherkinFeature", async () => {
  const agent = fakeAgent();
  await assert.rejects(
    runGherkinScenario(agent, "Feature: f\nScenario: a\n  Given a\nScenario: b\n  Given b"),
    (e: unknown) =>
      e instanceof RangeError &&
      /holds 2 \(scenarios or Examples rows at lines 2, 4\)/.test(e.message) &&
      /runGherkinFeature/.test(e.message) && /command line/.test(e.message),
  );
  await assert.rejects(
    runGherkinScenario(
      agent,
      "Scenario Outline: o\n  Given <x>\n  Examples:\n    | x |\n    | 1 |\n    | 2 |",
    ),
    /holds 2 .*lines 5, 6/,
  );
  assert.deepEqual(agent.calls, []);
});

test("a text with no scenario, or a scenario without steps, is a clear error", async () => {
  const agent = fakeAgent();
  await assert.rejects(runGherkinScenario(agent, ""), /holds no scenario/);
  await assert.rejects(runGherkinScenario(agent, "Feature: only a title"), /holds no scenario/);
  const e = await runGherkinScenario(agent, "Scenario: s\n  I click the button").catch((e) => e);
  assert.ok(e instanceof GherkinParseError);
  assert.equal(e.line, 2);
  assert.match(
    e.message,
    /line 2, column 1: Scenario "s" has no steps: this line is not a step \(a step starts with a keyword: Given, When, Then, And, But, \*\)/,
  );
  assert.deepEqual(agent.calls, []);
});

test("a syntax error rejects before any call, with its line", async () => {
  const agent = fakeAgent();
  await assert.rejects(
    runGherkinScenario(agent, "Given a\n  | x |\n  | y | z |"),
    (e: unknown) => e instanceof GherkinParseError && e.line === 3,
  );
  assert.deepEqual(agent.calls, []);
});

test("a target without aiAct and aiAssert is a TypeError", async () => {
  await assert.rejects(
    runGherkinScenario({} as never, "Given a"),
    (e: unknown) => e instanceof TypeError && /aiAct and aiAssert/.test(e.message),
  );
});

test("the SDK's Agent fits GherkinAgent (checked by the type checker)", () => {
  const asTarget = (agent: Agent): GherkinAgent => agent;
  assert.equal(typeof asTarget, "function");
});
