/// <reference lib="dom" />
/**
 * YAML scripts (spec 4.5 `runYaml`) end to end: the script engine (`runYamlScript`) drives a real
 * page agent of each driver in headless Chromium with the test model, which answers from the
 * fixture app's live page. Every flow key runs at least once, and the page's real state is
 * checked. `Agent.runYaml` will call the same engine with itself.
 *
 * @module
 */

import assert from "node:assert/strict";
import { readFile, rm } from "node:fs/promises";
import { after } from "../helpers/test.ts";
import { AssertionError, LocateError } from "@sdk/core";
import type { ReportExecution } from "@sdk/core/report";
import { parseReportHtml } from "../../core/report/_format.ts";
import { runYamlScript, YamlScriptError, YamlTaskError } from "../../core/script/mod.ts";
import {
  assertOnApp,
  extractFromApp,
  locateTarget,
  planSignInAndAdd,
  todoItems,
} from "../helpers/app_model.ts";
import { driverTest, type E2e, type E2ePage } from "./_drivers.ts";

const reports: string[] = [];
after(() => Promise.all(reports.map((file) => rm(file, { force: true }))));

/** The executions in the agent's report file, as a person opening it would see them. */
async function reportedExecutions(file: string | null | undefined): Promise<ReportExecution[]> {
  assert.ok(file, "the agent wrote a report file");
  reports.push(file);
  return parseReportHtml(await readFile(file, "utf8")).executions;
}

/** An agent whose test model answers from the fixture app's live page. */
function appAgent(env: E2e, page: E2ePage, options = {}) {
  return env.agent(page, {
    plan: (call) => planSignInAndAdd(page.appView(), call),
    locate: (call) => locateTarget(page.appView(), call.target),
    extract: async (call) => {
      const view = page.appView();
      if (call.returnType === "boolean") return await view.locator("#welcome").isVisible();
      if (/signed in/i.test(call.demand)) return await view.locator("#welcome").textContent();
      return await extractFromApp(view, call.demand);
    },
    assert: (call) => assertOnApp(page.appView(), call.assertion),
  }, options);
}

driverTest(
  "runYamlScript runs the instant actions, aiLocate, javascript, sleep and recordToReport on a real page",
  async (env) => {
    const page = await env.open("actions.html");
    const { agent, model } = await appAgent(env, page);
    const button = await page.measure("#click-button");
    const { result, tasks } = await runYamlScript(
      agent,
      `
tasks:
  - name: pointer
    flow:
      - aiTap: the Click me button
      - aiTap: the Click me button
        xpath: //button[@id="click-button"]
        cacheable: false
      - aiDoubleClick: the Double-click me button
      - aiRightClick: the Right-click me area
      - aiHover: the hover card
      - aiLocate: the Click me button
        name: button
      - javascript: window.appState.clicks
        name: clicks
  - name: keyboard
    flow:
      - aiInput: the key input
        value: hello
      - aiInput: " world"
        locate: the key input
        mode: typeOnly
      - javascript: document.querySelector('#key-input').value
        name: typed
      - aiKeyboardPress: Control+A
        locate: the key input
      - aiKeyboardPress: Backspace
      - javascript: document.querySelector('#key-input').value
      - aiInput: the key input
        value: 01234
      - javascript: document.querySelector('#key-input').value
        name: zip
      - aiClearInput: the key input
      - aiScroll: the scrollable box
        direction: down
        distance: 120
      - sleep: 100
      - recordToReport: after scrolling
        content: the box shows later rows
`,
      { fileName: "actions.yaml" },
    );
    assert.deepEqual(tasks, [
      { name: "pointer", status: "passed" },
      { name: "keyboard", status: "passed" },
    ]);
    assert.equal(await page.state("clicks"), 2);
    const tapTargets = model.calls.filter((c) => c.kind === "locate")
      .map((c) => (c.call as { target: string }).target);
    assert.equal(
      tapTargets.filter((t) => t === "the Click me button").length,
      2,
      "xpath: no model",
    );
    assert.equal(await page.state("doubleClicks"), 1);
    assert.equal(await page.state("rightClicks"), 1);
    assert.ok((await page.state<number>("hoverCount")) >= 1, "the hover card saw the pointer");
    const keys = await page.state<string[]>("keys");
    assert.equal(keys[keys.indexOf("Control+A") + 1], "Backspace", `keys: ${keys.join(" ")}`);
    assert.equal(await page.inputValue("#key-input"), "", "aiClearInput emptied the field");
    assert.ok((await page.state<number>("innerScrollTop")) > 50, "the box scrolled");

    const { button: found, ...rest } = result as { button: { center: [number, number] } };
    assert.ok(Math.abs(found.center[0] - (button.left + button.width / 2)) <= 2);
    assert.ok(Math.abs(found.center[1] - (button.top + button.height / 2)) <= 2);
    assert.deepEqual(rest, { clicks: 2, typed: "hello world", "0": "", zip: "01234" });

    await agent.destroy();
    const executions = await reportedExecutions(agent.reportFile);
    assert.deepEqual(executions.map((e) => [e.apiName, e.status]), [
      ["aiTap", "passed"],
      ["aiTap", "passed"],
      ["aiDoubleClick", "passed"],
      ["aiRightClick", "passed"],
      ["aiHover", "passed"],
      ["aiLocate", "passed"],
      ["aiInput", "passed"],
      ["aiInput", "passed"],
      ["aiKeyboardPress", "passed"],
      ["aiKeyboardPress", "passed"],
      ["aiInput", "passed"],
      ["aiClearInput", "passed"],
      ["aiScroll", "passed"],
      ["recordToReport", "passed"],
    ]);
    const record = executions.at(-1)!;
    assert.equal(record.prompt, "after scrolling");
    assert.equal(record.steps[0].thought, "the box shows later rows");
  },
);

driverTest(
  "runYamlScript plans with ai, aiAct and aiAction, reads ${VAR} from the environment, and returns every query",
  async (env) => {
    const page = await env.open("login.html");
    const { agent, model } = await appAgent(env, page);
    Deno.env.set("SDK_YAML_E2E_USER", "alice");
    Deno.env.set("SDK_YAML_E2E_PASSWORD", "secret");
    let run;
    try {
      run = await runYamlScript(
        agent,
        `
tasks:
  - name: sign in and add
    flow:
      - ai: sign in as \${SDK_YAML_E2E_USER} with password \${SDK_YAML_E2E_PASSWORD}, then add the todo 'Water the plants'
      - aiAction: sign in as alice with password secret, then add the todo 'Feed the cat'
      - aiAct: sign in as alice with password secret, then add the todo 'Call mom'
        deepThink: false
  - name: read the list
    flow:
      - aiQuery: the todo items, as an array of strings
        name: items
      - aiNumber: how many todo items are there
      - aiBoolean: is someone signed in
        name: signedIn
      - aiString: the page heading
      - aiAsk: who is signed in
      - aiAssert: the list shows 'Feed the cat'
        errorMessage: the cat was forgotten
      - javascript: |
          void setTimeout(() => {
            document.getElementById("new-item").value = "Later";
            document.getElementById("add").click();
          }, 400);
      - aiWaitFor: the list shows 'Later'
        timeout: 8000
        checkInterval: 200
`,
        { fileName: "todo.yaml" },
      );
    } finally {
      Deno.env.delete("SDK_YAML_E2E_USER");
      Deno.env.delete("SDK_YAML_E2E_PASSWORD");
    }
    assert.ok(page.url().endsWith("/list.html"));
    assert.deepEqual(await page.state("user"), "alice");
    const heading = (await page.evaluate(() => document.querySelector("h1")!.textContent))!.trim();
    const items = (await todoItems(page.appView())).filter((item) => item !== "Later");
    assert.deepEqual(items.slice(-3), ["Water the plants", "Feed the cat", "Call mom"]);
    assert.deepEqual(run.result, {
      items,
      "0": items.length,
      signedIn: true,
      "1": heading,
      "2": "Signed in as alice",
      "3": undefined,
    });
    assert.deepEqual(
      (await page.evaluate(() =>
        [...document.querySelectorAll("#todo-list li")].map((li) => li.textContent)
      )).map((t) => t!.trim()).filter((t) => t.includes("Later")).length,
      1,
      "aiWaitFor saw the item the page added later",
    );
    // The environment's values reached the model in the instruction.
    const firstPlan = model.calls.find((c) => c.kind === "plan")!.call as { instruction: string };
    assert.match(firstPlan.instruction, /sign in as alice with password secret/);

    await agent.destroy();
    const executions = await reportedExecutions(agent.reportFile);
    assert.deepEqual(executions.map((e) => [e.apiName, e.status]), [
      ["aiAct", "passed"],
      ["aiAct", "passed"],
      ["aiAct", "passed"],
      ["aiQuery", "passed"],
      ["aiNumber", "passed"],
      ["aiBoolean", "passed"],
      ["aiString", "passed"],
      ["aiAsk", "passed"],
      ["aiAssert", "passed"],
      ["aiWaitFor", "passed"],
    ]);
  },
);

driverTest(
  "runYamlScript drives aiLongPress and aiPinch with touch events enabled",
  async (env) => {
    const page = await env.open("touch.html");
    const { agent } = await env.agent(page, {
      locate: (call) =>
        page.measure(
          /hold/i.test(call.target) ? "#hold" : /drawing/i.test(call.target) ? "#zoom" : "#none",
        ),
    }, { enableTouchEventsInActionSpace: true });
    const { result } = await runYamlScript(
      agent,
      `
tasks:
  - name: gestures
    flow:
      - aiLongPress: the hold button
        duration: 600
      - aiPinch: the zoomable drawing
        direction: out
      - javascript: window.appState.scale
        name: zoomedIn
      - aiPinch:
        direction: in
        distance: 100
        duration: 200
`,
      { fileName: "touch.yaml" },
    );
    const press = await page.state<{ kind: string; heldMs: number }>("longPress");
    assert.equal(press.kind, "touch");
    assert.ok(press.heldMs >= 550, `held ${press.heldMs} ms`);
    assert.ok((result.zoomedIn as number) > 1, `zoomed in to ${result.zoomedIn}`);
    assert.ok(
      (await page.state<number>("scale")) < (result.zoomedIn as number),
      "the second pinch zoomed out",
    );
  },
);

driverTest(
  "a failing item throws the positioned YamlTaskError after continueOnError tasks went on, and the report holds what ran",
  async (env) => {
    const page = await env.open("actions.html");
    const { agent } = await appAgent(env, page);
    const error = await runYamlScript(
      agent,
      `tasks:
  - name: optional banner
    continueOnError: true
    flow:
      - aiTap: the purple unicorn
      - aiTap: the Click me button
  - name: count clicks
    flow:
      - aiTap: the Click me button
      - aiQuery: the page heading
        name: heading
      - aiAssert: the page shows 'Clicked 5 times'
        errorMessage: the counter did not reach 5
      - aiTap: the Click me button
  - name: never runs
    flow:
      - aiTap: the Click me button
`,
      { fileName: "clicks.yaml" },
    ).then(() => assert.fail("the script should fail"), (e: unknown) => e);
    assert.ok(error instanceof YamlTaskError, `a YamlTaskError, got ${error}`);
    assert.match(
      error.message,
      /^clicks\.yaml:12:9: aiAssert failed in task 'count clicks' \(item 3 of 4\): the counter did not reach 5\nAssertion failed: the page shows 'Clicked 5 times'/,
    );
    assert.deepEqual(
      [error.line, error.column, error.key, error.taskName, error.itemIndex, error.flowKey],
      [12, 9, "aiAssert", "count clicks", 2, "aiAssert"],
    );
    assert.ok(error.cause instanceof AssertionError);
    assert.equal(error.cause.errorMsg, "the counter did not reach 5");
    assert.deepEqual(error.result, { heading: "Actions" });
    // Only the tap of the second task ran: the optional one stopped at the unicorn.
    assert.equal(await page.state("clicks"), 1);

    await agent.destroy();
    const executions = await reportedExecutions(agent.reportFile);
    assert.deepEqual(executions.map((e) => [e.apiName, e.prompt, e.status]), [
      ["aiTap", "the purple unicorn", "failed"],
      ["aiTap", "the Click me button", "passed"],
      ["aiQuery", "the page heading", "passed"],
      ["aiAssert", "the page shows 'Clicked 5 times'", "failed"],
    ]);
    assert.match(executions[0].error!, /Element not found: "the purple unicorn"/);
    assert.match(executions[3].error!, /the counter did not reach 5/);
  },
);

driverTest(
  "bad YAML, unknown keys and missing variables fail before acting, naming file, line and key; the report keeps what ran",
  async (env) => {
    const page = await env.open("actions.html");
    const { agent, model } = await appAgent(env, page);
    // Agent.runYaml is the same engine with the agent itself.
    const ok = await agent.runYaml(
      "tasks:\n  - name: first\n    flow:\n      - aiTap: the Click me button\n",
      { fileName: "ok.yaml" },
    );
    assert.deepEqual(ok, { result: {}, tasks: [{ name: "first", status: "passed" }] });
    const bad: [string, RegExp, number, number, string | undefined][] = [
      [
        "tasks:\n  - name: t\n    flow:\n      - aiTap: the Click me button\n     - aiTap: again\n",
        /^bad\.yaml:5:1: invalid YAML: A block sequence may not be used as an implicit map key/,
        5,
        1,
        undefined,
      ],
      [
        "tasks:\n  - name: t\n    flow:\n      - aiTap: the Click me button\n      - aiTap: again\n        deepLocat: true\n",
        /^bad\.yaml:6:9: unknown key 'deepLocat' in the aiTap item \(did you mean 'deepLocate'\?\); known keys: deepLocate,/,
        6,
        9,
        "deepLocat",
      ],
      [
        "tasks:\n  - name: t\n    flow:\n      - aiTap: the Click me button\n      - aiInput: the key input\n        value: ${SDK_YAML_E2E_NOT_SET}\n",
        /^bad\.yaml:6:16: environment variable 'SDK_YAML_E2E_NOT_SET' is not set .*'value' of the aiInput item/,
        6,
        16,
        "value",
      ],
    ];
    const callsBefore = model.calls.length;
    for (const [text, message, line, column, key] of bad) {
      await assert.rejects(runYamlScript(agent, text, { fileName: "bad.yaml" }), (e: unknown) => {
        assert.ok(e instanceof YamlScriptError, `a YamlScriptError, got ${e}`);
        assert.match(e.message, message);
        assert.deepEqual([e.fileName, e.line, e.column, e.key], ["bad.yaml", line, column, key]);
        return true;
      });
    }
    assert.equal(model.calls.length, callsBefore, "no model call for an invalid script");
    assert.equal(await page.state("clicks"), 1, "only the valid script clicked");

    // A javascript item needs a web agent: this one has evaluateJavaScript, so the failure
    // comes from the page's own error instead, as a positioned YamlTaskError.
    await assert.rejects(
      runYamlScript(
        agent,
        "tasks:\n  - name: js\n    flow:\n      - javascript: no.such.thing\n",
        { fileName: "js.yaml" },
      ),
      (e: unknown) => {
        assert.ok(e instanceof YamlTaskError);
        assert.match(e.message, /^js\.yaml:4:9: javascript failed in task 'js' \(item 1 of 1\): /);
        return true;
      },
    );
    // A locate failure keeps its own class as the cause.
    await assert.rejects(
      runYamlScript(agent, "tasks:\n  - name: t\n    flow:\n      - aiHover: the purple unicorn\n"),
      (e: unknown) => e instanceof YamlTaskError && e.cause instanceof LocateError,
    );

    await agent.destroy();
    const executions = await reportedExecutions(agent.reportFile);
    assert.deepEqual(executions.map((e) => [e.apiName, e.status]), [
      ["aiTap", "passed"],
      ["aiHover", "failed"],
    ]);
  },
);
