/// <reference lib="dom" />
/**
 * Gherkin scenarios (spec 4.5) on a real page agent of each driver, against the fixture app:
 * `Given` / `When` steps go to `aiAct`, `Then` steps to `aiAssert`, through the whole path
 * (screenshot, test-model request, action in Chromium). The scripted model plans one step's
 * instruction at a time: "sign in as USER with password PASS", "add the todo 'ITEM'".
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Page as PageB } from "playwright-core";
import { AssertionError } from "@sdk/core";
import type { PlanCall, PlanReply, TestModelScript } from "@sdk/core/testing";
import { GherkinStepError } from "@sdk/core";
import { runGherkinFeature } from "@sdk/core/gherkin";
import { appModelScript, locateTarget, todoItems } from "../helpers/app_model.ts";
import { driverTest, type E2ePage } from "./_drivers.ts";

async function locate(view: PageB, prompt: string) {
  const box = await locateTarget(view, prompt);
  if (!box) throw new Error(`scripted model: "${prompt}" is not on the page`);
  return { prompt, box };
}

/** Plans one Gherkin step's instruction from the page's current state. */
async function planStep(view: PageB, call: PlanCall): Promise<PlanReply> {
  const path = new URL(view.url()).pathname;
  const signIn = /sign in as (\w+) with password (\w+)/i.exec(call.instruction);
  if (signIn) {
    const [, user, pass] = signIn;
    if (path.endsWith("/list.html")) return { log: "The todo list is shown", finished: true };
    for (const [field, value] of [["the username field", user], ["the password field", pass]]) {
      const selector = field.includes("username") ? "#username" : "#password";
      if (await view.inputValue(selector) !== value) {
        return {
          log: `Type into ${field}`,
          action: { type: "Input", param: { locate: await locate(view, field), value } },
        };
      }
    }
    return {
      log: "Tap the Sign in button",
      action: { type: "Tap", param: { locate: await locate(view, "the Sign in button") } },
    };
  }
  const add = /add the todo '([^']+)'/i.exec(call.instruction);
  if (add) {
    const item = add[1];
    if ((await todoItems(view)).includes(item)) {
      return { log: `"${item}" is in the list`, finished: true, output: `Added "${item}"` };
    }
    if (!path.endsWith("/list.html")) return { log: "", error: "The todo list is not shown." };
    if (await view.inputValue("#new-item") !== item) {
      return {
        log: `Type "${item}" into the new item field`,
        action: {
          type: "Input",
          param: { locate: await locate(view, "the new item field"), value: item },
        },
      };
    }
    return {
      log: "Tap the Add button",
      action: { type: "Tap", param: { locate: await locate(view, "the Add button") } },
    };
  }
  return { log: "", error: `I cannot do this here: ${call.instruction}` };
}

function stepScript(page: E2ePage): TestModelScript {
  const view = page.appView();
  return { ...appModelScript(view), plan: (call) => planStep(view, call) };
}

driverTest(
  "agent.runGherkinScenario signs in, adds a todo and asserts it; the page holds the item",
  async (env) => {
    const page = await env.open("login.html");
    const { agent, model } = await env.agent(page, stepScript(page), { generateReport: false });
    await agent.runGherkinScenario(
      `Feature: Todo list
         Scenario: Add a todo after signing in
           Given I sign in as alice with password secret
           When I add the todo 'Call the plumber'
           Then the list shows 'Call the plumber'
             And the page shows 'Signed in as alice'`,
      { context: "The app is a small todo list." },
    );
    // The page's real state.
    assert.match(page.url(), /list\.html$/);
    assert.equal(await page.evaluate(() => sessionStorage.getItem("user")), "alice");
    const seeded = ["Buy milk", "Walk the dog", "Write the report"];
    assert.deepEqual(await todoItems(page.appView()), [...seeded, "Call the plumber"]);
    assert.equal(await page.state("count"), 4);
    // One aiAct per Given/When (planning calls with the step text as instruction), one
    // aiAssert per Then/And, each with the scenario's context.
    const plans = model.calls.filter((c) => c.kind === "plan");
    assert.deepEqual([...new Set(plans.map((c) => (c.call as PlanCall).instruction))], [
      "I sign in as alice with password secret",
      "I add the todo 'Call the plumber'",
    ]);
    const asserts = model.calls.filter((c) => c.kind === "assert");
    assert.deepEqual(asserts.map((c) => (c.call as { assertion: string }).assertion), [
      "the list shows 'Call the plumber'",
      "the page shows 'Signed in as alice'",
    ]);
    assert.ok(
      model.calls.every((c) => c.call?.context === "The app is a small todo list."),
      "every mapped call carries the scenario's context",
    );
  },
);

driverTest(
  "a failing Then rejects with a GherkinStepError naming its line, step and action",
  async (env) => {
    const page = await env.open("login.html");
    const { agent, model } = await env.agent(page, stepScript(page), { generateReport: false });
    const text = [
      "Given I sign in as alice with password secret", // 1
      "When I add the todo 'Call the plumber'", // 2
      "Then the list shows 'Feed the cat'", // 3
      "When I add the todo 'Never added'", // 4
    ].join("\n");
    const error = await agent.runGherkinScenario(text).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof GherkinStepError, `expected a GherkinStepError, got ${error}`);
    assert.equal(error.gherkinLine, 3);
    assert.equal(error.step, "Then the list shows 'Feed the cat'");
    assert.deepEqual(error.action, { api: "aiAssert", prompt: "the list shows 'Feed the cat'" });
    assert.ok(error.cause instanceof AssertionError);
    assert.match(error.cause.reason, /does not show "Feed the cat"/);
    assert.ok(
      error.message.startsWith(
        `Step failed at line 3: "Then the list shows 'Feed the cat'" ` +
          `(aiAssert "the list shows 'Feed the cat'"): `,
      ),
      error.message,
    );
    assert.match(error.message, /Assertion failed: the list shows 'Feed the cat'/);
    // The steps before it ran for real; the step after it did not run.
    assert.deepEqual((await todoItems(page.appView())).slice(3), ["Call the plumber"]);
    assert.ok(
      model.calls.every((c) => !(c.kind === "plan" && /Never added/.test(c.call?.userText ?? ""))),
    );
  },
);

driverTest(
  "runGherkinFeature runs a Scenario Outline once per Examples row, each from a fresh login page",
  async (env) => {
    const page = await env.open("login.html");
    const { agent } = await env.agent(page, stepScript(page), { generateReport: false });
    const loginUrl = new URL("login.html", env.appUrl).href;
    const feature = [
      "Feature: Todo list", // 1
      "  Background:", // 2
      "    Given I sign in as alice with password secret", // 3
      "", // 4
      "  Scenario Outline: Add <item>", // 5
      "    When I add the todo '<item>'", // 6
      "    Then the list shows '<item>'", // 7
      "", // 8
      "    Examples:", // 9
      "      | item             |", // 10
      "      | Water the plants |", // 11
      "      | Pay the rent     |", // 12
    ].join("\n");
    const listAfter: string[][] = [];
    const started: string[] = [];
    const results = await runGherkinFeature(agent, feature, {
      fileName: "todo.feature",
      beforeScenario: async (scenario) => {
        started.push(`${scenario.index}: ${scenario.name} (line ${scenario.line})`);
        await (page.raw as { goto(url: string): Promise<unknown> }).goto(loginUrl);
      },
      onScenario: async () => {
        listAfter.push(await todoItems(page.appView()));
      },
    });
    assert.deepEqual(
      results.map((r) => [r.name, r.line, r.status, r.error?.message]),
      [
        ["Add Water the plants", 11, "passed", undefined],
        ["Add Pay the rent", 12, "passed", undefined],
      ],
    );
    assert.ok(results.every((r) => r.durationMs > 0));
    assert.deepEqual(started, [
      "0: Add Water the plants (line 11)",
      "1: Add Pay the rent (line 12)",
    ]);
    // Each row signed in again from the login page and added only its own item.
    assert.deepEqual(listAfter.map((items) => items.slice(3)), [["Water the plants"], [
      "Pay the rent",
    ]]);
    assert.match(page.url(), /list\.html$/);
  },
);
