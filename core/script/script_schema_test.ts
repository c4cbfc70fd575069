import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { FLOW_ITEM_KEYS } from "./platform_items.ts";
import { YamlScriptError } from "./script_errors.ts";
import { parseScriptFile, parseScriptTasks, SCRIPT_SECTION_KEYS } from "./script_schema.ts";

const ENV: Record<string, string> = {
  USER_NAME: "alice",
  WAIT_MS: "250",
  YES: "true",
  EMPTY: "",
  BLANK: "  ",
};
const env = (name: string) => Object.hasOwn(ENV, name) ? ENV[name] : undefined;

/** A script with one task named `t` whose flow is `flow` (indented by the caller as items). */
const oneTask = (flow: string) => `tasks:\n  - name: t\n    flow:\n${flow}`;

async function items(flow: string) {
  const { tasks } = await parseScriptTasks(oneTask(flow), { fileName: "f.yaml", env });
  return tasks[0].flow.map(({ key, value, options, name }) => ({ key, value, options, name }));
}

async function rejects(
  text: string,
  expected: { line: number; column: number; key?: string; path?: string; message: RegExp },
  parse: (text: string) => Promise<unknown> = (t) =>
    parseScriptTasks(t, { fileName: "f.yaml", env }),
) {
  await assert.rejects(parse(text), (e: unknown) => {
    assert.ok(e instanceof YamlScriptError, `a YamlScriptError, got ${e}`);
    assert.equal(e.name, "YamlScriptError");
    assert.deepEqual(
      { line: e.line, column: e.column, key: e.key, path: e.path },
      { line: expected.line, column: expected.column, key: expected.key, path: expected.path },
    );
    assert.ok(e.message.startsWith(`f.yaml:${expected.line}:${expected.column}: `), e.message);
    assert.match(e.message, expected.message);
    return true;
  });
}

test("parseScriptTasks() reads tasks, continueOnError and item positions", async () => {
  const { fileName, tasks } = await parseScriptTasks(
    "tasks:\n  - name: a\n    continueOnError: true\n    flow:\n      - sleep: 5\n  - name: b\n    flow: []\n",
    { fileName: "f.yaml" },
  );
  assert.equal(fileName, "f.yaml");
  assert.deepEqual(
    tasks.map((t) => [t.name, t.continueOnError, t.line, t.column, t.flow.length]),
    [["a", true, 2, 5, 1], ["b", false, 6, 5, 0]],
  );
  assert.deepEqual(tasks[0].flow[0], { key: "sleep", value: 5, options: {}, line: 5, column: 9 });
});

test("parseScriptTasks() reads a locating item's options and a prompt with images", async () => {
  assert.deepEqual(
    await items(
      "      - aiTap: the Sign in button\n        deepLocate: true\n        xpath: //button\n        cacheable: false\n" +
        "      - aiHover:\n          prompt: the logo\n          images:\n            - name: logo\n              url: ./logo.png\n",
    ),
    [
      {
        key: "aiTap",
        value: "the Sign in button",
        options: { deepLocate: true, xpath: "//button", cacheable: false },
        name: undefined,
      },
      {
        key: "aiHover",
        value: { prompt: "the logo", images: [{ name: "logo", url: "./logo.png" }] },
        options: {},
        name: undefined,
      },
    ],
  );
});

test("parseScriptTasks() reads aiInput locate-first and in the older text-first form", async () => {
  const read = await items(
    "      - aiInput: the zip field\n        value: 01234\n" +
      "      - aiInput: 01234\n        locate: the zip field\n        mode: typeOnly\n" +
      "      - aiInput: the zip field\n        mode: clear\n",
  );
  assert.deepEqual(read.map((i) => [i.value, i.options]), [
    ["the zip field", { value: "01234" }],
    ["the zip field", { value: "01234", mode: "typeOnly" }],
    ["the zip field", { mode: "clear" }],
  ]);
});

test("parseScriptTasks() reads aiKeyboardPress key-first and with keyName", async () => {
  const read = await items(
    "      - aiKeyboardPress: Enter\n" +
      "      - aiKeyboardPress: Control+A\n        locate: the search box\n" +
      "      - aiKeyboardPress: the search box\n        keyName: Tab\n" +
      "      - aiKeyboardPress:\n        keyName: Escape\n",
  );
  assert.deepEqual(read.map((i) => [i.value, i.options]), [
    [undefined, { keyName: "Enter" }],
    ["the search box", { keyName: "Control+A" }],
    ["the search box", { keyName: "Tab" }],
    [undefined, { keyName: "Escape" }],
  ]);
});

test("parseScriptTasks() reads aiScroll with or without an element, and result names", async () => {
  const read = await items(
    "      - aiScroll:\n        direction: up\n        scrollType: singleAction\n        distance: 300\n" +
      "      - aiScroll: the list\n        scrollType: scrollToBottom\n" +
      "      - aiScroll:\n        locate: the list\n        distance:\n" +
      "      - aiQuery: the items\n        name: items\n        domIncluded: visible-only\n",
  );
  assert.deepEqual(read, [
    {
      key: "aiScroll",
      value: undefined,
      options: { direction: "up", scrollType: "singleAction", distance: 300 },
      name: undefined,
    },
    {
      key: "aiScroll",
      value: "the list",
      options: { scrollType: "scrollToBottom" },
      name: undefined,
    },
    { key: "aiScroll", value: "the list", options: { distance: null }, name: undefined },
    {
      key: "aiQuery",
      value: "the items",
      options: { domIncluded: "visible-only" },
      name: "items",
    },
  ]);
});

test("parseScriptTasks() reads ${NAME} in values; numbers and booleans from the environment", async () => {
  const read = await items(
    "      - aiInput: the username field\n        value: ${USER_NAME}\n" +
      "      - aiWaitFor: signed in as ${USER_NAME}\n        timeout: ${WAIT_MS}\n" +
      "      - aiTap: x\n        deepLocate: ${YES}\n" +
      '      - javascript: "`$${USER_NAME}`"\n',
  );
  assert.deepEqual(read.map((i) => [i.value, i.options]), [
    ["the username field", { value: "alice" }],
    ["signed in as alice", { timeout: 250 }],
    ["x", { deepLocate: true }],
    ["`${USER_NAME}`", {}],
  ]);
});

test("a missing environment variable names the variable, file, line and key", async () => {
  await rejects(oneTask("      - aiInput: the field\n        value: ${NOT_SET_ANYWHERE}\n"), {
    line: 5,
    column: 16,
    key: "value",
    path: "tasks[0].flow[0].value",
    message: /environment variable 'NOT_SET_ANYWHERE' is not set .*'value' of the aiInput item/,
  });
});

test("an empty or blank ${NAME} in a number key is an error naming the key, never 0", async () => {
  for (const name of ["EMPTY", "BLANK"]) {
    await rejects(oneTask(`      - aiWaitFor: ready\n        timeout: \${${name}}\n`), {
      line: 5,
      column: 18,
      key: "timeout",
      path: "tasks[0].flow[0].timeout",
      message: /'timeout' of the aiWaitFor item must be a number/,
    });
  }
});

test("an unknown key in a flow item names the key and lists the item's keys", async () => {
  await rejects(oneTask("      - aiWaitFor: done\n        timeoutMs: 5\n"), {
    line: 5,
    column: 9,
    key: "timeoutMs",
    path: "tasks[0].flow[0].timeoutMs",
    message:
      /unknown key 'timeoutMs' in the aiWaitFor item \(did you mean 'timeout'\?\); known keys: timeout, checkInterval/,
  });
  await rejects(oneTask("      - sleep: 5\n        name: x\n"), {
    line: 5,
    column: 9,
    key: "name",
    path: "tasks[0].flow[0].name",
    message: /sleep takes no other keys/,
  });
});

test("a value of the wrong type names the key, what it must be and what it got", async () => {
  await rejects(oneTask("      - aiWaitFor: done\n        timeout: soon\n"), {
    line: 5,
    column: 18,
    key: "timeout",
    path: "tasks[0].flow[0].timeout",
    message: /'timeout' of the aiWaitFor item must be a number >= 0 \(ms\): got "soon"/,
  });
  await rejects(oneTask("      - sleep: -1\n"), {
    line: 4,
    column: 16,
    key: "sleep",
    path: "tasks[0].flow[0].sleep",
    message: /'sleep' of task 't' must be a number >= 0 \(ms\): got number -1/,
  });
  await rejects(oneTask("      - aiScroll:\n        direction: sideways\n"), {
    line: 5,
    column: 20,
    key: "direction",
    path: "tasks[0].flow[0].direction",
    message: /must be one of 'down', 'up', 'left', 'right': got "sideways"/,
  });
  await rejects(oneTask("      - aiTap:\n"), {
    line: 4,
    column: 15,
    key: "aiTap",
    path: "tasks[0].flow[0].aiTap",
    message:
      /'aiTap' of task 't' needs the element, as the item's value .* or as 'locate': got nothing/,
  });
});

test("options indented under the flow key get a hint to put them beside it", async () => {
  await rejects(oneTask("      - aiScroll:\n          direction: up\n"), {
    line: 5,
    column: 11,
    key: "aiScroll",
    path: "tasks[0].flow[0].aiScroll",
    message: /a mapping without 'prompt' \(direction\); an item's options go beside its flow key/,
  });
});

test("a flow item needs exactly one flow key", async () => {
  await rejects(oneTask("      - aiTapp: x\n"), {
    line: 4,
    column: 9,
    key: "aiTapp",
    path: "tasks[0].flow[0].aiTapp",
    message:
      /the flow item has no flow key: 'aiTapp' is not one \(did you mean 'aiTap'\?\); flow keys: ai, aiAct/,
  });
  await rejects(oneTask("      - aiTap: x\n        aiHover: y\n"), {
    line: 5,
    column: 9,
    key: "aiHover",
    path: "tasks[0].flow[0].aiHover",
    message: /'aiTap' and 'aiHover' are both in this one/,
  });
  await rejects(oneTask("      - just text\n"), {
    line: 4,
    column: 9,
    key: "flow",
    path: "tasks[0].flow[0]",
    message: /a flow item is a mapping with one flow key.*: got "just text"/,
  });
});

test("aiInput and aiKeyboardPress reject ambiguous forms and a missing value", async () => {
  await rejects(oneTask("      - aiInput: the field\n        value: a\n        locate: b\n"), {
    line: 4,
    column: 9,
    key: "value",
    path: "tasks[0].flow[0].value",
    message: /aiInput takes 'value' .* or 'locate' .*, not both/,
  });
  await rejects(oneTask("      - aiInput: the field\n"), {
    line: 4,
    column: 9,
    key: "value",
    path: "tasks[0].flow[0].value",
    message: /aiInput needs 'value'/,
  });
  await rejects(
    oneTask("      - aiKeyboardPress: the box\n        keyName: Tab\n        locate: x\n"),
    {
      line: 4,
      column: 9,
      key: "locate",
      path: "tasks[0].flow[0].locate",
      message: /aiKeyboardPress with 'keyName' takes the element as its value/,
    },
  );
  await rejects(oneTask("      - aiScroll: the list\n        locate: the list\n"), {
    line: 4,
    column: 9,
    key: "locate",
    path: "tasks[0].flow[0].locate",
    message: /names the element twice/,
  });
  await rejects(oneTask("      - aiPinch: the map\n"), {
    line: 4,
    column: 9,
    key: "direction",
    path: "tasks[0].flow[0].direction",
    message: /the aiPinch item needs 'direction'/,
  });
});

test("the task and top-level structure are checked", async () => {
  await rejects("task:\n  - name: t\n", {
    line: 1,
    column: 1,
    key: "task",
    path: "task",
    message:
      /unknown key 'task' in the script \(did you mean 'tasks'\?\); known keys: tasks, agent, web/,
  });
  await rejects("agent: {}\n", {
    line: 1,
    column: 1,
    key: "tasks",
    path: "tasks",
    message: /the script has no 'tasks' section/,
  });
  await rejects("tasks:\n  - flow: []\n", {
    line: 2,
    column: 5,
    key: "name",
    path: "tasks[0].name",
    message: /task 1 needs 'name'/,
  });
  await rejects("tasks:\n  - name: t\n    flow: {}\n", {
    line: 3,
    column: 11,
    key: "flow",
    path: "tasks[0].flow",
    message: /'flow' of task 't' must be a list of flow items: got a mapping/,
  });
  await rejects("tasks:\n  - name: t\n    continue: true\n    flow: []\n", {
    line: 3,
    column: 5,
    key: "continue",
    path: "tasks[0].continue",
    message: /unknown key 'continue' in task 1; known keys: name, continueOnError, flow/,
  });
  await rejects("- a\n", {
    line: 1,
    column: 1,
    message: /a script is a mapping with a 'tasks' section: got a list/,
  });
});

test("parseScriptTasks() does not read target sections, even of later platforms", async () => {
  const { tasks } = await parseScriptTasks(
    "mobilea:\n  anything: 1\nweb:\n  url: ${NOT_SET_ANYWHERE}\ntasks: []\n",
    { fileName: "f.yaml", env },
  );
  assert.deepEqual(tasks, []);
});

const file = (text: string) => parseScriptFile(text, "f.yaml", { env });

test("parseScriptFile() reads the web and agent sections", async () => {
  const script = await file(
    "web:\n  url: https://example.com/${USER_NAME}\n  viewportWidth: 1024\n  deviceScaleFactor: 2\n" +
      "  waitForNetworkIdle:\n    timeout: 2000\n    continueOnNetworkIdleError: true\n  output: out.json\n" +
      "agent:\n  reportFileName: flow\n  cache: { strategy: read-only }\n  aiActContext: be careful\n" +
      "  aiContexts: { default: d, aiTap: t }\n  modelConfig: { SDK_MODEL_NAME: m, SDK_MODEL_TIMEOUT: 5 }\n" +
      "tasks:\n  - name: t\n    flow:\n      - aiAct: do it\n",
  );
  assert.equal(script.target, "web");
  assert.deepEqual(script.web, {
    url: "https://example.com/alice",
    viewportWidth: 1024,
    deviceScaleFactor: 2,
    waitForNetworkIdle: { timeout: 2000, continueOnNetworkIdleError: true },
    output: "out.json",
  });
  assert.deepEqual(script.agent, {
    reportFileName: "flow",
    cache: { strategy: "read-only" },
    aiActContext: "be careful",
    aiContexts: { default: "d", aiTap: "t" },
    modelConfig: { SDK_MODEL_NAME: "m", SDK_MODEL_TIMEOUT: 5 },
  });
  assert.equal(script.tasks[0].flow[0].key, "aiAct");
  const served = await file("web:\n  serve: ./site\n  url: index.html\ntasks: []\n");
  assert.deepEqual([served.web, served.agent], [{ serve: "./site", url: "index.html" }, {}]);
});

test("parseScriptFile() names a missing url, unknown keys and wrong types of the sections", async () => {
  await rejects("web:\n  viewportWidth: 800\ntasks: []\n", {
    line: 2,
    column: 3,
    key: "url",
    path: "web.url",
    message: /the web section needs 'url'/,
  }, file);
  await rejects("web:\n  url: login.html\ntasks: []\n", {
    line: 2,
    column: 8,
    key: "url",
    path: "web.url",
    message: /must be an absolute URL \(https:\/\/...\), or a path with 'serve': got "login.html"/,
  }, file);
  await rejects("web:\n  url: https://x\n  viewport: 3\ntasks: []\n", {
    line: 3,
    column: 3,
    key: "viewport",
    path: "web.viewport",
    message: /unknown key 'viewport' in the web section; known keys: url, serve, viewportWidth/,
  }, file);
  await rejects("web:\n  url: https://x\n  viewportHeight: 1.5\ntasks: []\n", {
    line: 3,
    column: 19,
    key: "viewportHeight",
    path: "web.viewportHeight",
    message: /must be a whole number > 0 \(CSS px\): got number 1.5/,
  }, file);
  await rejects("web:\n  url: https://x\nagent:\n  cache: { id: c, mode: x }\ntasks: []\n", {
    line: 4,
    column: 19,
    key: "mode",
    path: "agent.cache.mode",
    message: /unknown key 'mode' in the cache mapping; known keys: id, strategy, cacheDir/,
  }, file);
  await rejects("web:\n  url: https://x\nagent:\n  aiContexts: { aiTapp: x }\ntasks: []\n", {
    line: 4,
    column: 17,
    key: "aiTapp",
    path: "agent.aiContexts.aiTapp",
    message: /unknown key 'aiTapp' in aiContexts/,
  }, file);
});

test("parseScriptFile() needs a target section and sends device platforms' sections to their packages", async () => {
  await rejects("tasks: []\n", {
    line: 1,
    column: 1,
    key: "web",
    path: "web",
    message: /the script needs a target section: 'web'/,
  }, file);
  await rejects("mobileb:\n  udid: x\ntasks: []\n", {
    line: 1,
    column: 1,
    key: "mobileb",
    path: "mobileb",
    message: /'mobileb' is a device platform's section: .*run it with its platform package/,
  }, file);
});

test("FLOW_ITEM_KEYS and SCRIPT_SECTION_KEYS list every key for tools", () => {
  assert.deepEqual(FLOW_ITEM_KEYS.sleep, []);
  assert.deepEqual(FLOW_ITEM_KEYS.javascript, ["name"]);
  assert.deepEqual(FLOW_ITEM_KEYS.aiWaitFor, ["timeout", "checkInterval", "context"]);
  assert.ok(FLOW_ITEM_KEYS.aiQuery.includes("name"));
  assert.ok(FLOW_ITEM_KEYS.aiInput.includes("value") && FLOW_ITEM_KEYS.aiInput.includes("locate"));
  assert.deepEqual(SCRIPT_SECTION_KEYS.task, ["name", "continueOnError", "flow"]);
  assert.ok(SCRIPT_SECTION_KEYS.web.includes("waitForNetworkIdle"));
  assert.ok(SCRIPT_SECTION_KEYS.agent.includes("aiActContext"));
  assert.ok(SCRIPT_SECTION_KEYS.top.includes("mobilea"));
});

test("parseScriptFile() reads the web section's nativeDialogs: dismiss or accept", async () => {
  const parse = (text: string) => parseScriptFile(text, "f.yaml", { env });
  const script = await parse("web:\n  url: https://x\n  nativeDialogs: accept\ntasks: []\n");
  assert.deepEqual(script.web, { url: "https://x", nativeDialogs: "accept" });
  await rejects("web:\n  url: https://x\n  nativeDialogs: ignore\ntasks: []\n", {
    line: 3,
    column: 18,
    key: "nativeDialogs",
    path: "web.nativeDialogs",
    message: /dismiss.*accept.*got "ignore"/,
  }, parse);
});
