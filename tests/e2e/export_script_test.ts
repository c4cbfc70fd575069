/**
 * `agent.exportScript(path)` (issue 35, docs/yaml-and-cli.md "Exported scripts"): a run compiled
 * into a YAML script of instant actions with their locators, the prompts kept as the fallback.
 * Run again on a fresh page it makes no model call; on a page where one element no longer matches
 * it asks the model for that element only; `${VAR}` values stay `${VAR}`.
 */

import assert from "node:assert/strict";
import { parse } from "yaml";
import type { PlanCall, TestModelScript } from "@sdk/core/testing";
import { driverTest, type E2e, type E2ePage, singleDriverTest } from "./_drivers.ts";

const runDir = await Deno.makeTempDir({ prefix: "sdk_export_e2e_" });
Deno.env.set("SDK_RUN_DIR", runDir);

const TASK = "click the button, then type hello into the key input";
const SECRET = "s3cr3t-Value-42";
Deno.env.set("EXPORT_E2E_SECRET", SECRET);

/** Answers locates and plans on actions.html as a model would, from the page's real layout. */
function script(page: E2ePage): TestModelScript {
  return {
    locate: ({ target }) =>
      /click me/i.test(target)
        ? page.measure("#click-button, #renamed-button")
        : /key input/i.test(target)
        ? page.measure("#key-input")
        : Promise.resolve(null),
    plan: async ({ history, instruction }: PlanCall) => {
      const typed = /type (\S+) into/.exec(instruction)?.[1] ?? "hello";
      const tap = /click the button/.test(instruction);
      const steps = [
        ...(tap
          ? [{
            log: "Tap the Click me button",
            action: {
              type: "Tap",
              param: { locate: { prompt: "Click me", box: await page.measure("#click-button") } },
            },
          }]
          : []),
        {
          log: `Type ${typed}`,
          action: {
            type: "Input",
            param: {
              locate: { prompt: "the key input", box: await page.measure("#key-input") },
              value: typed,
            },
          },
        },
      ];
      return steps[history.length] ?? { log: "done", finished: true, output: "done" };
    },
    assert: () => ({ pass: true }),
  };
}

interface Item {
  [key: string]: unknown;
  locator?: { xpaths?: string[]; target?: { kind: string; id?: string; name?: string } };
}

/** Runs TASK on a fresh page and exports it: the file, its text and the parsed flow. */
async function recordTask(e2e: E2e) {
  const page = await e2e.open("actions.html");
  const { agent } = await e2e.agent(page, script(page));
  assert.equal(await agent.aiAct(TASK), "done");
  const file = `${await Deno.makeTempDir()}/task.yaml`;
  await agent.exportScript(file);
  const text = await Deno.readTextFile(file);
  const doc = parse(text) as { tasks: { name: string; flow: Item[] }[] };
  return { file, text, flow: doc.tasks[0].flow };
}

driverTest(
  "exportScript after aiAct writes its actions as instant items with locators; the script repeats it on a fresh page without a model call",
  async (e2e) => {
    const { text, flow } = await recordTask(e2e);
    assert.match(text, new RegExp(`# aiAct: ${TASK}`), `the instruction as a comment:\n${text}`);
    assert.deepEqual(flow.map((i) => Object.keys(i)[0]), ["aiTap", "aiInput"]);
    assert.equal(flow[0].aiTap, "Click me");
    assert.deepEqual(flow[0].locator?.xpaths, ['//*[@id="click-button"]']);
    assert.deepEqual(
      [flow[0].locator?.target?.kind, flow[0].locator?.target?.id],
      ["button", "click-button"],
    );
    assert.equal(flow[1].aiInput, "the key input");
    assert.equal(flow[1].value, "hello");
    assert.deepEqual(flow[1].locator?.xpaths, ['//*[@id="key-input"]']);

    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, script(page));
    await agent.runYaml(text);
    assert.equal(model.calls.length, 0, "no model call while the screens match");
    assert.equal(await page.state("clicks"), 1);
    assert.equal(await page.inputValue("#key-input"), "hello");
  },
);

singleDriverTest(
  "DriverB",
  "an exported step whose element no longer matches asks the model for that element only",
  async (e2e) => {
    const { text } = await recordTask(e2e);
    const page = await e2e.open("actions.html");
    // The button keeps its place and its handler, under another id: the locator misses.
    await page.evaluate(() => {
      document.getElementById("click-button")!.id = "renamed-button";
    });
    const { agent, model } = await e2e.agent(page, script(page));
    await agent.runYaml(text);
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
    assert.equal(await page.state("clicks"), 1);
    assert.equal(await page.inputValue("#key-input"), "hello");
  },
);

singleDriverTest(
  "DriverB",
  "values typed from ${VAR} stay ${VAR} in the export, in instant items and in aiAct plans alike",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent } = await e2e.agent(page, script(page));
    await agent.runYaml(`
tasks:
  - name: type the secret
    flow:
      - aiInput: the key input
        value: \${EXPORT_E2E_SECRET}
      - aiAct: type \${EXPORT_E2E_SECRET} into the key input
      - aiAssert: the key input is filled
`);
    assert.equal(await page.inputValue("#key-input"), SECRET);
    const file = `${await Deno.makeTempDir()}/secret.yaml`;
    await agent.exportScript(file);
    const text = await Deno.readTextFile(file);
    if (Deno.env.get("EXPORT_DEBUG")) console.log(text);
    assert.ok(!text.includes(SECRET), `the secret is not in the export:\n${text}`);
    const flow = (parse(text) as { tasks: { name: string; flow: Item[] }[] }).tasks[0].flow;
    assert.deepEqual(flow.map((i) => [Object.keys(i)[0], i.value]), [
      ["aiInput", "${EXPORT_E2E_SECRET}"],
      ["aiInput", "${EXPORT_E2E_SECRET}"],
    ]);
    assert.match(text, /# aiAct: type \$\{EXPORT_E2E_SECRET\} into the key input/);
    assert.match(text, /#\s+aiAssert: the key input is filled/, "a check is left as a comment");

    const again = await e2e.open("actions.html");
    const { agent: second, model } = await e2e.agent(again, script(again));
    await second.runYaml(text);
    assert.equal(model.calls.length, 0);
    assert.equal(await again.inputValue("#key-input"), SECRET);
  },
);
