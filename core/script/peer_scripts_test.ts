/**
 * Scripts users already have: the shapes of the peer SDK's scripts, renamed only as the spec's
 * naming table says, and every error of a file reported at once.
 *
 * @module
 */

import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { YamlScriptError } from "./script_errors.ts";
import {
  parsePlatformScriptFile,
  parseScriptFile,
  parseScriptTasks,
  scriptTargetOf,
} from "./script_schema.ts";
import type { ScriptSectionSchema } from "./script_sections.ts";
import { text } from "./value_readers.ts";
import { platformFlowItems } from "./platform_items.ts";

const env = (name: string) => name === "SET" ? "yes" : undefined;

/** A phone section as a platform package describes it. */
const PHONE: ScriptSectionSchema<{ deviceId?: string; launch?: string }> = {
  key: "mobileb",
  label: "MobileB",
  describe: "deviceId, launch",
  items: platformFlowItems("launch", "terminate", "runDriverRequest", "appSwitcher", "home"),
  fields: { deviceId: text, launch: text },
};

const flowOf = (body: string) => `tasks:\n  - name: t\n    flow:\n${body}`;

async function itemsOf(body: string, target = "web:\n  url: https://example.com\n") {
  const file = target.startsWith("mobileb")
    ? await parsePlatformScriptFile(PHONE, target + flowOf(body), "p.yaml", { env })
    : await parseScriptFile(target + flowOf(body), "p.yaml", { env });
  return file.tasks[0].flow.map(({ key, value, options, name }) => ({ key, value, options, name }));
}

/** The error a parse rejects with. */
async function errorOf(parse: Promise<unknown>): Promise<YamlScriptError> {
  const e = await parse.then(() => undefined, (e: unknown) => e);
  assert.ok(e instanceof YamlScriptError, `a YamlScriptError, got ${e}`);
  return e;
}

test("runDriverRequest takes the spec's params mapping {method, endpoint, data} as well as the endpoint as text", async () => {
  const read = await itemsOf(
    "      - runDriverRequest:\n          method: POST\n          endpoint: /session/abc/wda/pressButton\n          data:\n            name: home\n        name: pressed\n" +
      "      - runDriverRequest:\n          endpoint: /status\n" +
      "      - runDriverRequest: /wda/device/info\n        method: GET\n",
    "mobileb:\n  launch: com.apple.Preferences\n",
  );
  assert.deepEqual(read, [
    {
      key: "runDriverRequest",
      value: "/session/abc/wda/pressButton",
      options: { method: "POST", data: { name: "home" } },
      name: "pressed",
    },
    { key: "runDriverRequest", value: "/status", options: {}, name: undefined },
    {
      key: "runDriverRequest",
      value: "/wda/device/info",
      options: { method: "GET" },
      name: undefined,
    },
  ]);
  const twice = await errorOf(parsePlatformScriptFile(
    PHONE,
    "mobileb:\n" +
      flowOf(
        "      - runDriverRequest:\n          endpoint: /status\n          method: GET\n        method: GET\n",
      ),
    "p.yaml",
  ));
  assert.match(twice.message, /'method' .*both/);
  const noEndpoint = await errorOf(parsePlatformScriptFile(
    PHONE,
    "mobileb:\n" + flowOf("      - runDriverRequest:\n          method: GET\n"),
    "p.yaml",
  ));
  assert.match(noEndpoint.message, /needs 'endpoint'/);
});

test("runToolShell and runBridgeShell take {command} (and runBridgeShell {command, timeout}) as well as text", async () => {
  const read = await itemsOf(
    "      - runToolShell:\n          command: hidumper -s WindowManagerService\n        name: windows\n" +
      "      - runBridgeShell:\n          command: dumpsys battery\n          timeout: 60000\n" +
      "      - runBridgeShell: getprop ro.product.model\n        timeout: 5000\n",
  );
  assert.deepEqual(read, [
    {
      key: "runToolShell",
      value: "hidumper -s WindowManagerService",
      options: {},
      name: "windows",
    },
    {
      key: "runBridgeShell",
      value: "dumpsys battery",
      options: { timeout: 60000 },
      name: undefined,
    },
    {
      key: "runBridgeShell",
      value: "getprop ro.product.model",
      options: { timeout: 5000 },
      name: undefined,
    },
  ]);
  const unknown = await errorOf(
    parseScriptTasks(flowOf("      - runToolShell:\n          cmd: ls\n"), { fileName: "p.yaml" }),
  );
  assert.match(unknown.message, /unknown key 'cmd'.*command/);
});

test("locate: stands beside every item that locates, as it does beside aiScroll and aiInput", async () => {
  const keys = [
    "aiTap",
    "aiHover",
    "aiDoubleClick",
    "aiRightClick",
    "aiClearInput",
    "aiLongPress",
    "aiLocate",
  ];
  const read = await itemsOf(
    keys.map((k) => `      - ${k}:\n        locate: the ${k} target\n        deepLocate: true\n`)
      .join(""),
  );
  assert.deepEqual(
    read.map((i) => [i.key, i.value, i.options]),
    keys.map((k) => [k, `the ${k} target`, { deepLocate: true }]),
  );
  const twice = await errorOf(
    parseScriptFile(
      "web:\n  url: https://example.com\n" +
        flowOf("      - aiTap: the button\n        locate: the link\n"),
      "p.yaml",
    ),
  );
  assert.match(twice.message, /names the element twice/);
});

test("the former 'target:' section is read as 'web:' with a deprecation warning naming the place", async () => {
  const warnings: string[] = [];
  const script = await parseScriptFile(
    "target:\n  url: https://example.com\n  output: out.json\n" + flowOf("      - sleep: 1\n"),
    "old.yaml",
    { onWarning: (w) => warnings.push(w) },
  );
  assert.equal(script.target, "web");
  assert.deepEqual(script.web, { url: "https://example.com", output: "out.json" });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /^old\.yaml:1:1: 'target' is the former name of 'web'/);
  assert.equal(await scriptTargetOf("target:\n  url: x\ntasks: []\n", "old.yaml"), "web");
  const both = await errorOf(parseScriptFile(
    "web:\n  url: https://example.com\ntarget:\n  url: https://example.com\n" + flowOf(""),
    "old.yaml",
    { onWarning: () => {} },
  ));
  assert.match(both.message, /'target'.*'web'.*both|both.*'web'.*'target'/);
});

test("the unknown flow key message suggests the script's own platform's keys", async () => {
  const web = await errorOf(parseScriptFile(
    "web:\n  url: https://example.com\n" + flowOf("      - aiTapp: the button\n"),
    "w.yaml",
  ));
  assert.match(web.message, /'aiTapp' is not one \(did you mean 'aiTap'\?\)/);
  assert.match(web.message, /javascript/);
  for (
    const phoneOnly of ["runBridgeShell", "runDriverRequest", "runToolShell", "launch", "back"]
  ) {
    assert.ok(!web.message.includes(phoneOnly), `a web script is not offered ${phoneOnly}`);
  }
  const phone = await errorOf(parsePlatformScriptFile(
    PHONE,
    "mobileb:\n" + flowOf("      - runDriverRequst: /status\n"),
    "p.yaml",
  ));
  assert.match(phone.message, /did you mean 'runDriverRequest'/);
  assert.match(phone.message, /appSwitcher/);
  for (const other of ["javascript", "runBridgeShell", "runToolShell", "recentApps"]) {
    assert.ok(!phone.message.includes(other), `a MobileB script is not offered ${other}`);
  }
});

test("every error of a file is reported at once, each with file:line:col, the first as the error's own fields", async () => {
  const e = await errorOf(parseScriptFile(
    [
      "web:",
      "  url: https://example.com",
      "  viewportWidth: wide",
      "tasks:",
      "  - name: one",
      "    flow:",
      "      - aiTapp: the button",
      "      - sleep: -1",
      "  - name: two",
      "    flow:",
      "      - aiInput: the field",
      "        value: ${UNSET_VAR}",
      "      - aiWaitFor: ready",
      "        timeout: soon",
      "",
    ].join("\n"),
    "flows/many.yaml",
    { env },
  ));
  assert.deepEqual(
    e.errors.map((x) => [x.line, x.column, x.key]),
    [[3, 18, "viewportWidth"], [7, 9, "aiTapp"], [8, 16, "sleep"], [12, 16, "value"], [
      14,
      18,
      "timeout",
    ]],
  );
  assert.deepEqual([e.line, e.column, e.key, e.fileName], [
    3,
    18,
    "viewportWidth",
    "flows/many.yaml",
  ]);
  assert.equal(e.errors[0].message.split("\n")[0], e.message.split("\n")[0]);
  const lines = e.message.split("\n").filter((l) => /^flows\/many\.yaml:\d+:\d+: /.test(l));
  assert.equal(lines.length, 5, e.message);
  assert.match(e.message, /5 errors/);
});

test("a file with more than 20 errors reports the first 20 and says there are more", async () => {
  const body = Array.from({ length: 30 }, (_, i) => `      - sleep: bad${i}\n`).join("");
  const e = await errorOf(parseScriptTasks(flowOf(body), { fileName: "big.yaml" }));
  assert.equal(e.errors.length, 20);
  assert.equal(e.errors[19].line, 23);
  assert.match(e.message, /first 20 errors/);
});

test("several YAML syntax errors are all reported", async () => {
  const e = await errorOf(
    parseScriptTasks(
      "tasks:\n  - name: a\n    flow:\n      - aiTap: [open\n  - name: b\n    flow: {x\n",
      { fileName: "s.yaml" },
    ),
  );
  assert.ok(e.errors.length >= 2, e.message);
  assert.ok(e.errors.every((x) => /^s\.yaml:\d+:\d+: invalid YAML/.test(x.message)), e.message);
});
