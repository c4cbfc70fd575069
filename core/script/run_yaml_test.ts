import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { LocateResultValue } from "../session/options.ts";
import { runYamlScript } from "./run_yaml.ts";
import { YamlScriptError, YamlTaskError } from "./script_errors.ts";
import type { YamlAgent } from "./yaml_agent.ts";

type Call = [string, ...unknown[]];

/** A fake agent: records every call; `answers[method]` gives a result or throws. */
class FakeAgent implements YamlAgent {
  calls: Call[] = [];
  constructor(readonly answers: Record<string, (...args: unknown[]) => unknown> = {}) {}
  #call<T>(method: string, ...args: unknown[]): Promise<T> {
    // Trailing undefined arguments are left out, as a caller would.
    while (args.length && args[args.length - 1] === undefined) args.pop();
    this.calls.push([method, ...args]);
    try {
      return Promise.resolve(this.answers[method]?.(...args) as T);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  aiAct = (...a: unknown[]) => this.#call<string | undefined>("aiAct", ...a);
  aiTap = (...a: unknown[]) => this.#call<void>("aiTap", ...a);
  aiHover = (...a: unknown[]) => this.#call<void>("aiHover", ...a);
  aiDoubleClick = (...a: unknown[]) => this.#call<void>("aiDoubleClick", ...a);
  aiRightClick = (...a: unknown[]) => this.#call<void>("aiRightClick", ...a);
  aiClearInput = (...a: unknown[]) => this.#call<void>("aiClearInput", ...a);
  aiInput = (...a: unknown[]) => this.#call<void>("aiInput", ...a);
  aiKeyboardPress = (...a: unknown[]) => this.#call<void>("aiKeyboardPress", ...a);
  aiScroll = (...a: unknown[]) => this.#call<void>("aiScroll", ...a);
  aiLongPress = (...a: unknown[]) => this.#call<void>("aiLongPress", ...a);
  aiPinch = (...a: unknown[]) => this.#call<void>("aiPinch", ...a);
  aiLocate = (...a: unknown[]) => this.#call<LocateResultValue>("aiLocate", ...a);
  aiQuery = (...a: unknown[]) => this.#call<unknown>("aiQuery", ...a);
  aiBoolean = (...a: unknown[]) => this.#call<boolean>("aiBoolean", ...a);
  aiNumber = (...a: unknown[]) => this.#call<number>("aiNumber", ...a);
  aiString = (...a: unknown[]) => this.#call<string>("aiString", ...a);
  aiAsk = (...a: unknown[]) => this.#call<string>("aiAsk", ...a);
  aiAssert = (...a: unknown[]) => this.#call<void>("aiAssert", ...a);
  aiWaitFor = (...a: unknown[]) => this.#call<void>("aiWaitFor", ...a);
  recordToReport = (...a: unknown[]) => this.#call<void>("recordToReport", ...a);
}

/** A fake web agent: also has `evaluateJavaScript`. */
class FakeWebAgent extends FakeAgent {
  evaluateJavaScript = (...a: unknown[]) => this.#js(...a);
  #js(...a: unknown[]): Promise<unknown> {
    this.calls.push(["evaluateJavaScript", ...a]);
    return Promise.resolve(this.answers.evaluateJavaScript?.(...a));
  }
}

const run = (agent: YamlAgent, text: string, env: Record<string, string> = {}) =>
  runYamlScript(agent, text, {
    fileName: "flow.yaml",
    env: (name) => Object.hasOwn(env, name) ? env[name] : undefined,
  });

/** A script of one task `t` with these flow lines (each indented 6 spaces by the caller). */
const oneTask = (...lines: string[]) => `tasks:\n  - name: t\n    flow:\n${lines.join("\n")}\n`;

test("runYamlScript() calls each flow key's agent method with its options", async () => {
  const agent = new FakeWebAgent();
  await run(
    agent,
    oneTask(
      "      - ai: sign in",
      "      - aiAct: sign in\n        deepThink: unset\n        cacheable: false",
      "      - aiAction: sign in\n        fileChooserAccept: [a.png, b.png]",
      "      - aiTap: the button\n        deepLocate: true\n        fileChooserAccept: a.png",
      "      - aiHover: the card\n        context: c",
      "      - aiDoubleClick: the button\n        xpath: //b",
      "      - aiRightClick: the area\n        deepThink: true",
      "      - aiClearInput: the field",
      "      - aiInput: the field\n        value: 42\n        mode: typeOnly\n        inputStrategy: bulk",
      "      - aiKeyboardPress: Enter",
      "      - aiKeyboardPress: Control+A\n        locate: the field",
      "      - aiScroll:\n        direction: down\n        distance: 400",
      "      - aiScroll: the list\n        scrollType: scrollToBottom",
      "      - aiLongPress: the photo\n        duration: 800",
      "      - aiPinch: the map\n        direction: out\n        distance: 100",
      "      - aiLocate: the logo",
      "      - aiQuery: the items\n        domIncluded: true",
      "      - aiBoolean: signed in?",
      "      - aiNumber: how many",
      "      - aiString: the title\n        screenshotIncluded: false",
      "      - aiAsk: what is shown",
      "      - aiAssert: the list shows 'x'\n        errorMessage: no x",
      "      - aiWaitFor: the list is shown\n        timeout: 5000\n        checkInterval: 500\n        context: c",
      "      - sleep: 0",
      "      - javascript: document.title",
      "      - recordToReport: checkpoint\n        content: the list",
      "      - recordToReport:",
    ),
  );
  assert.deepEqual(agent.calls, [
    ["aiAct", "sign in", {}],
    ["aiAct", "sign in", { deepThink: "unset", cacheable: false }],
    ["aiAct", "sign in", { fileChooserAccept: ["a.png", "b.png"] }],
    ["aiTap", "the button", { deepLocate: true, fileChooserAccept: "a.png" }],
    ["aiHover", "the card", { context: "c" }],
    ["aiDoubleClick", "the button", { xpath: "//b" }],
    ["aiRightClick", "the area", { deepThink: true }],
    ["aiClearInput", "the field", {}],
    ["aiInput", "the field", { value: "42", mode: "typeOnly", inputStrategy: "bulk" }],
    ["aiKeyboardPress", undefined, { keyName: "Enter" }],
    ["aiKeyboardPress", "the field", { keyName: "Control+A" }],
    ["aiScroll", undefined, { direction: "down", distance: 400 }],
    ["aiScroll", "the list", { scrollType: "scrollToBottom" }],
    ["aiLongPress", "the photo", { duration: 800 }],
    ["aiPinch", "the map", { direction: "out", distance: 100 }],
    ["aiLocate", "the logo", {}],
    ["aiQuery", "the items", { domIncluded: true }],
    ["aiBoolean", "signed in?", {}],
    ["aiNumber", "how many", {}],
    ["aiString", "the title", { screenshotIncluded: false }],
    ["aiAsk", "what is shown", {}],
    ["aiAssert", "the list shows 'x'", "no x", {}],
    ["aiWaitFor", "the list is shown", { timeoutMs: 5000, checkIntervalMs: 500, context: "c" }],
    ["evaluateJavaScript", "document.title"],
    ["recordToReport", "checkpoint", { content: "the list" }],
    ["recordToReport", undefined, {}],
  ]);
});

test("runYamlScript() stores results by name, else by their position in the file", async () => {
  let n = 0;
  const agent = new FakeWebAgent({
    aiQuery: () => ["a", "b"],
    aiNumber: () => 2,
    aiBoolean: () => true,
    aiString: () => `s${n++}`,
    aiLocate: () => ({ rect: { left: 1, top: 2, width: 3, height: 4 }, center: [2, 4], dpr: 1 }),
    evaluateJavaScript: () => "Title",
  });
  const { result, tasks } = await run(
    agent,
    "tasks:\n" +
      "  - name: first\n    flow:\n      - aiQuery: the items\n        name: items\n" +
      "      - aiNumber: how many\n      - aiTap: the button\n      - aiString: a\n" +
      "  - name: second\n    flow:\n      - aiBoolean: shown?\n" +
      "      - javascript: document.title\n        name: title\n      - aiLocate: the logo\n" +
      "      - aiString: b\n        name: __proto__\n",
  );
  assert.deepEqual(result, {
    items: ["a", "b"],
    "0": 2,
    "1": "s0",
    "2": true,
    title: "Title",
    "3": { rect: { left: 1, top: 2, width: 3, height: 4 }, center: [2, 4], dpr: 1 },
    ["__proto__"]: "s1",
  });
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.deepEqual(tasks, [{ name: "first", status: "passed" }, {
    name: "second",
    status: "passed",
  }]);
});

test("runYamlScript() reads ${NAME} from the given environment", async () => {
  const agent = new FakeAgent();
  await run(
    agent,
    oneTask("      - aiInput: the username field\n        value: ${LOGIN_USER}"),
    { LOGIN_USER: "alice" },
  );
  assert.deepEqual(agent.calls, [["aiInput", "the username field", { value: "alice" }]]);
});

test("a failing item throws a YamlTaskError naming task, item, file and line, with the cause", async () => {
  const cause = new Error('Element not found: "the purple unicorn"');
  const agent = new FakeAgent({
    aiQuery: () => 7,
    aiTap: (locate) => {
      if (locate === "the purple unicorn") throw cause;
    },
  });
  const script = "tasks:\n  - name: setup\n    flow:\n      - aiQuery: n\n" +
    "  - name: log in\n    flow:\n      - aiTap: the button\n      - aiTap: the purple unicorn\n" +
    "      - aiTap: never\n  - name: later\n    flow:\n      - aiTap: never either\n";
  await assert.rejects(run(agent, script), (e: unknown) => {
    assert.ok(e instanceof YamlTaskError);
    assert.ok(e instanceof YamlScriptError);
    assert.equal(
      e.message,
      "flow.yaml:8:9: aiTap failed in task 'log in' (item 2 of 3): " +
        'Element not found: "the purple unicorn"',
    );
    assert.equal(e.cause, cause);
    assert.deepEqual(
      [e.fileName, e.line, e.column, e.key, e.path, e.taskName, e.taskIndex, e.itemIndex],
      ["flow.yaml", 8, 9, "aiTap", "tasks[1].flow[1]", "log in", 1, 1],
    );
    assert.equal(e.flowKey, "aiTap");
    assert.deepEqual(e.result, { "0": 7 });
    return true;
  });
  assert.deepEqual(agent.calls.map((c) => c[1]), ["n", "the button", "the purple unicorn"]);
});

test("continueOnError ends the failing task, records it and runs the next task", async () => {
  const agent = new FakeAgent({
    aiAssert: () => {
      throw new Error("Assertion failed: it is not there");
    },
    aiString: () => "later",
  });
  const { result, tasks } = await run(
    agent,
    "tasks:\n  - name: optional check\n    continueOnError: true\n    flow:\n" +
      "      - aiAssert: it is there\n      - aiString: skipped\n" +
      "  - name: next\n    flow:\n      - aiString: runs\n",
  );
  // The skipped item keeps its position "0": positions come from the file.
  assert.deepEqual(result, { "1": "later" });
  assert.deepEqual(tasks.map((t) => [t.name, t.status]), [
    ["optional check", "failed"],
    ["next", "passed"],
  ]);
  assert.ok(tasks[0].error instanceof YamlTaskError);
  assert.match(tasks[0].error.message, /^flow\.yaml:5:9: aiAssert failed in task 'optional check'/);
  assert.deepEqual(agent.calls.map((c) => c[0]), ["aiAssert", "aiString"]);
});

test("an invalid script runs nothing, even when the error is in a later task", async () => {
  const agent = new FakeAgent();
  await assert.rejects(
    run(agent, oneTask("      - aiTap: fine", "      - aiInput: f\n        value: ${NOT_SET}")),
    /flow\.yaml:6:16: environment variable 'NOT_SET' is not set/,
  );
  await assert.rejects(
    run(agent, oneTask("      - aiTap: fine", "      - aiTap: x\n        deepLocat: true")),
    /flow\.yaml:6:9: unknown key 'deepLocat' in the aiTap item/,
  );
  assert.deepEqual(agent.calls, []);
});

test("a javascript item on an agent without evaluateJavaScript fails before anything runs", async () => {
  const agent = new FakeAgent();
  await assert.rejects(
    run(agent, oneTask("      - aiTap: first", "      - javascript: document.title")),
    (e: unknown) => {
      assert.ok(e instanceof YamlScriptError && !(e instanceof YamlTaskError));
      assert.equal(
        e.message,
        "flow.yaml:5:9: 'javascript' needs an agent with evaluateJavaScript() (web agents), " +
          "and this agent has none",
      );
      assert.equal(e.path, "tasks[0].flow[1]");
      return true;
    },
  );
  assert.deepEqual(agent.calls, []);
});

test("sleep waits its milliseconds", async () => {
  const t0 = performance.now();
  await run(new FakeAgent(), oneTask("      - sleep: 30"));
  assert.ok(performance.now() - t0 >= 25);
});

test("an aborted signal stops the run with its reason, whatever continueOnError says", async () => {
  const controller = new AbortController();
  const agent = new FakeAgent({ aiTap: () => controller.abort(new Error("stop")) });
  const script = "tasks:\n  - name: t\n    continueOnError: true\n    flow:\n" +
    "      - aiTap: a\n      - sleep: 10000\n  - name: u\n    flow:\n      - aiTap: b\n";
  await assert.rejects(
    runYamlScript(agent, script, { signal: controller.signal }),
    /^Error: stop$/,
  );
  assert.deepEqual(agent.calls, [["aiTap", "a", {}]]);
  // aiAct gets the signal.
  const actAgent = new FakeAgent();
  const signal = new AbortController().signal;
  await runYamlScript(actAgent, oneTask("      - aiAct: go"), { signal });
  assert.deepEqual(actAgent.calls, [["aiAct", "go", { abortSignal: signal }]]);
});

test("every item the agent cannot perform is named at once, and an unknown flow key is offered the agent's own keys", async () => {
  const agent = new FakeAgent();
  const lacking = await run(
    agent,
    oneTask("      - javascript: document.title", "      - back:", "      - runToolShell: ls"),
  ).then(() => undefined, (e: unknown) => e);
  assert.ok(lacking instanceof YamlScriptError);
  assert.deepEqual(lacking.errors.map((e) => [e.line, e.key]), [
    [4, "javascript"],
    [5, "back"],
    [6, "runToolShell"],
  ]);
  assert.deepEqual(agent.calls, []);
  const unknown = await run(new FakeWebAgent(), oneTask("      - javascrip: 1"))
    .then(() => undefined, (e: unknown) => e);
  assert.ok(unknown instanceof YamlScriptError);
  assert.match(unknown.message, /did you mean 'javascript'/);
  assert.ok(!/runBridgeShell|launch|appSwitcher/.test(unknown.message), unknown.message);
});
