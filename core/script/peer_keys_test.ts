/**
 * The keys the peer SDK's users write (issue 40): the `web` section's browser keys, the report
 * attributes of the `agent` section, `page:` and `browser:` as names of `web:`, and the items
 * `logScreenshot`, `freezePageContext`, `unfreezePageContext` and a named `aiAssert`, run by a
 * real agent with the test model.
 *
 * @module
 */

import { after, test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../agent/agent.ts";
import type { AbstractInterface } from "../device/types.ts";
import { createTestPng, startTestModel } from "../testing/mod.ts";
import { runYamlScript } from "./run_yaml.ts";
import { YamlScriptError, YamlTaskError } from "./script_errors.ts";
import { parseScriptFile, readScriptAgentSection, scriptTargetOf } from "./script_schema.ts";
import { scriptAgentOptions } from "./script_source.ts";

Deno.env.set("SDK_RUN_DIR", mkdtempSync(join(tmpdir(), "sdk-peer-keys-")));

const TASKS = "tasks:\n  - name: t\n    flow:\n      - sleep: 1\n";

/** The error a parse rejects with. */
async function errorOf(parse: Promise<unknown>): Promise<YamlScriptError> {
  const e = await parse.then(() => undefined, (e: unknown) => e);
  assert.ok(e instanceof YamlScriptError, `a YamlScriptError, got ${e}`);
  return e;
}

test("the web section reads the peer's browser keys: cdpEndpoint, chromeArgs, extraHTTPHeaders, acceptInsecureCerts, downloadPath, headless, autoFollowNewPage, unstableLogContent", async () => {
  const script = await parseScriptFile(
    "web:\n  url: https://example.com\n" +
      "  chromeArgs:\n    - --lang=de\n    - --window-size=800,600\n" +
      "  extraHTTPHeaders:\n    X-Token: abc\n    X-Retry: 3\n" +
      "  acceptInsecureCerts: true\n  downloadPath: downloads\n  headless: false\n" +
      "  autoFollowNewPage: true\n  unstableLogContent: out/log.json\n" + TASKS,
    "keys.yaml",
  );
  assert.deepEqual(script.web, {
    url: "https://example.com",
    chromeArgs: ["--lang=de", "--window-size=800,600"],
    extraHTTPHeaders: { "X-Token": "abc", "X-Retry": "3" },
    acceptInsecureCerts: true,
    downloadPath: "downloads",
    headless: false,
    autoFollowNewPage: true,
    unstableLogContent: "out/log.json",
  });
  const attached = await parseScriptFile(
    "web:\n  url: https://example.com\n  cdpEndpoint: http://127.0.0.1:9222\n" +
      "  unstableLogContent: true\n" + TASKS,
    "cdp.yaml",
  );
  assert.equal(attached.web.cdpEndpoint, "http://127.0.0.1:9222");
  assert.equal(attached.web.unstableLogContent, true);
});

test("the new web keys are read strictly: a near miss gets a suggestion, a header value must be text (a number is taken as written), and keys that contradict each other are errors", async () => {
  const e = await errorOf(parseScriptFile(
    "web:\n  url: https://example.com\n  chromeArg: [--lang=de]\n" +
      "  extraHTTPHeaders:\n    X-Retry: [3]\n" + TASKS,
    "bad.yaml",
  ));
  assert.match(e.message, /bad\.yaml:3:3: .*'chromeArg'.*chromeArgs/);
  assert.match(e.message, /bad\.yaml:5:14: .*X-Retry.*text/);

  const both = await errorOf(parseScriptFile(
    "web:\n  url: https://example.com\n  cdpEndpoint: ws://127.0.0.1:9222/devtools/browser/x\n" +
      "  chromeArgs: [--lang=de]\n  autoFollowNewPage: true\n  forceSameTabNavigation: true\n" +
      TASKS,
    "both.yaml",
  ));
  assert.match(both.message, /both\.yaml:4:3: 'chromeArgs' and 'cdpEndpoint' .*keep one/);
  assert.match(both.message, /both\.yaml:6:3: 'forceSameTabNavigation: true' .*autoFollowNewPage/);
});

test("an untrusted script may not give chromeArgs or cdpEndpoint, and its downloadPath and unstableLogContent stay inside the working folder", async () => {
  const e = await errorOf(parseScriptFile(
    "web:\n  url: https://example.com\n  chromeArgs: [--renderer-cmd-prefix=/bin/sh]\n" +
      "  downloadPath: ../../outside\n  unstableLogContent: /tmp/log.json\n" +
      "  cdpEndpoint: http://127.0.0.1:9222\n" + TASKS,
    "hostile.yaml",
    { untrusted: true, workDir: "." },
  ));
  assert.match(
    e.message,
    /hostile\.yaml:3:3: 'chromeArgs' of an untrusted script passes arguments/,
  );
  assert.match(e.message, /hostile\.yaml:4:17: 'downloadPath' .*outside the working folder/);
  assert.match(e.message, /hostile\.yaml:5:23: 'unstableLogContent' .*outside the working folder/);
  assert.match(e.message, /hostile\.yaml:6:3: 'cdpEndpoint' of an untrusted script attaches/);
  // The peer's names of the section are checked as web: is.
  const page = await errorOf(parseScriptFile(
    "page:\n  url: https://example.com\n  chromeArgs: [--no-sandbox]\n" + TASKS,
    "page.yaml",
    { untrusted: true, workDir: ".", onWarning: () => {} },
  ));
  assert.match(page.message, /page\.yaml:3:3: 'chromeArgs' of an untrusted script/);
  await parseScriptFile(
    "web:\n  url: https://example.com\n  unstableLogContent: true\n  downloadPath: out\n" + TASKS,
    "fine.yaml",
    { untrusted: true, workDir: "." },
  );
});

test("the agent section reads testId, groupName and groupDescription, which are report attributes and not agent options", async () => {
  const script = await parseScriptFile(
    "web:\n  url: https://example.com\nagent:\n  testId: checkout-1\n" +
      "  groupName: Checkout\n  groupDescription: the whole checkout\n  cache: true\n" + TASKS,
    "checkout.yaml",
  );
  assert.deepEqual(script.agent, {
    testId: "checkout-1",
    groupName: "Checkout",
    groupDescription: "the whole checkout",
    cache: true,
  });
  assert.deepEqual(scriptAgentOptions("checkout.yaml", script.agent), {
    cache: { id: "checkout" },
  });
  // A device platform's file: the section alone, as the command line reads it for its report.
  assert.deepEqual(
    await readScriptAgentSection(
      "mobilea:\n  launch: com.example\nagent:\n  testId: notes-1\ntasks: []\n",
      "notes.yaml",
    ),
    { testId: "notes-1" },
  );
  const bad = await errorOf(
    readScriptAgentSection("mobilea:\nagent:\n  testID: x\ntasks: []\n", "bad.yaml"),
  );
  assert.match(bad.message, /bad\.yaml:3:3: .*'testID'.*testId/);
});

test("page: and browser: are read as web: with a warning; two names of the web section are an error", async () => {
  for (const name of ["page", "browser"]) {
    const warnings: string[] = [];
    const text = `${name}:\n  url: https://example.com\n` + TASKS;
    const script = await parseScriptFile(text, "peer.yaml", {
      onWarning: (w) => warnings.push(w),
    });
    assert.equal(script.web.url, "https://example.com");
    assert.equal(await scriptTargetOf(text, "peer.yaml"), "web");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], new RegExp(`^peer\\.yaml:1:1: '${name}' is the peer SDK's name`));
  }
  const two = await errorOf(parseScriptFile(
    "page:\n  url: https://example.com\nbrowser:\n  url: https://example.com\n" + TASKS,
    "two.yaml",
    { onWarning: () => {} },
  ));
  assert.match(two.message, /two\.yaml:3:1: 'browser' and 'page' both name the 'web' section/);
  const withWeb = await errorOf(parseScriptFile(
    "web:\n  url: https://example.com\npage:\n  url: https://example.com\n" + TASKS,
    "web.yaml",
    { onWarning: () => {} },
  ));
  assert.match(
    withWeb.message,
    /web\.yaml:3:1: 'page' is the peer SDK's name of 'web'.*keep 'web'/,
  );
});

const png = createTestPng(400, 300);
const model = await startTestModel({
  viewport: { width: 400, height: 300 },
  script: {
    assert: (call) =>
      /logo/.test(call.assertion)
        ? { pass: true, thought: "The logo is in the corner." }
        : { pass: false, thought: "There is no cart." },
  },
});
after(() => model.close());

/** A screen that only takes screenshots: the items under test act on nothing else. */
function screenOnly(): AbstractInterface & { shots: number } {
  const device = {
    interfaceType: "screen",
    shots: 0,
    screenshotBase64: () => {
      device.shots++;
      return Promise.resolve(png);
    },
    size: () => Promise.resolve({ width: 400, height: 300, dpr: 1 }),
    actionSpace: () => [],
  };
  return device;
}

const agentOn = (device: AbstractInterface) =>
  new Agent(device, { generateReport: false, modelConfig: model.modelConfig() });

const flow = (items: string) => `tasks:\n  - name: t\n    flow:\n${items}`;

test("a named aiAssert stores { pass, thought } under its name; a failing one stores pass: false and fails its task; an unnamed one stores nothing", async () => {
  const agent = agentOn(screenOnly());
  const run = await runYamlScript(
    agent,
    flow(
      "      - aiAssert: the logo is shown\n        name: logo\n      - aiAssert: the logo is there\n",
    ),
  );
  assert.deepEqual(run.result, { logo: { pass: true, thought: "The logo is in the corner." } });

  const failed = await runYamlScript(
    agent,
    flow("      - aiAssert: the cart is shown\n        name: cart\n"),
  ).then(() => undefined, (e: unknown) => e);
  assert.ok(failed instanceof YamlTaskError, `a YamlTaskError, got ${failed}`);
  assert.deepEqual(failed.result, { cart: { pass: false, thought: "There is no cart." } });
  await agent.destroy();
});

/** Each call of the agent's log as [apiName, title, first step's kind, its description]. */
const recordsOf = (agent: Agent) =>
  agent._unstableLogContent().executions.map((
    e,
  ) => [e.apiName, e.prompt, e.steps[0]?.kind, e.steps[0]?.thought]);

const TWO_RECORDS = [
  ["recordToReport", "after login", "Log", "the home page"],
  ["recordToReport", "untitled", "Log", undefined],
];

test("logScreenshot records the screen to the report as recordToReport does: the value is the title, content the description", async () => {
  const agent = agentOn(screenOnly());
  await runYamlScript(
    agent,
    flow(
      "      - logScreenshot: after login\n        content: the home page\n      - logScreenshot:\n",
    ),
  );
  assert.deepEqual(recordsOf(agent), TWO_RECORDS);
  await agent.destroy();
});

test("agent.logScreenshot, the peer SDK's former name of recordToReport, records the same entry", async () => {
  const agent = agentOn(screenOnly());
  await agent.logScreenshot("after login", { content: "the home page" });
  await agent.logScreenshot();
  assert.deepEqual(recordsOf(agent), TWO_RECORDS);
  await agent.destroy();
});

test("freezePageContext and unfreezePageContext items freeze the screen for the items between them", async () => {
  const device = screenOnly();
  const agent = agentOn(device);
  await runYamlScript(
    agent,
    flow(
      "      - freezePageContext:\n      - aiAssert: the logo is shown\n" +
        "      - aiAssert: the logo is still shown\n      - unfreezePageContext:\n" +
        "      - aiAssert: the logo is back\n",
    ),
  );
  // One screenshot for the frozen snapshot serves both assertions; the last takes its own.
  assert.equal(device.shots, 2);
  const e = await errorOf(
    runYamlScript(agent, flow("      - freezePageContext: now\n")),
  );
  assert.match(e.message, /'freezePageContext'.*empty/);
  await agent.destroy();
});
