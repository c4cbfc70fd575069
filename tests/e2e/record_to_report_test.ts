import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { DriverBPageAgent } from "@sdk/web";
import { createTestPng } from "@sdk/core/testing";
import { startE2e } from "./_setup.ts";

const env = await startE2e();
after(() => env.close());

test("recordToReport captures the current screen with its description, and needs no model", async () => {
  const page = await env.open("list.html");
  // No model configuration at all: recording is not model-driven.
  const agent = new DriverBPageAgent(page, { autoPrintReportMsg: false });
  let captures = 0;
  const capture = agent.interface.screenshotBase64.bind(agent.interface);
  agent.interface.screenshotBase64 = () => (captures++, capture());
  await agent.recordToReport("List before adding", { content: "three seeded items" });
  assert.equal(captures, 1);
  const [execution] = agent._unstableLogContent().executions;
  assert.equal(execution.apiName, "recordToReport");
  assert.equal(execution.status, "passed");
  assert.equal(execution.steps.length, 1);
  assert.equal(execution.steps[0].kind, "Log");
  assert.equal(execution.steps[0].title, "List before adding");
  assert.equal(execution.steps[0].thought, "three seeded items");
  await agent.destroy();
  const html = await readFile(agent.reportFile!, "utf8");
  assert.ok(
    html.includes(`data-id="${execution.steps[0].screenshot}"`),
    "the screenshot is stored",
  );
});

test("recordToReport records given screenshots without capturing, raw base64 as PNG", async () => {
  const page = await env.open("list.html");
  const agent = new DriverBPageAgent(page, { autoPrintReportMsg: false, generateReport: false });
  agent.interface.screenshotBase64 = () => Promise.reject(new Error("must not capture"));
  const red = await createTestPng(40, 20, { color: [255, 0, 0] });
  const blue = await createTestPng(40, 20, { color: [0, 0, 255] });
  await agent.recordToReport("two states", {
    content: "before and after",
    screenshots: [
      { base64: red, description: "before" },
      { base64: blue.slice(blue.indexOf(",") + 1), description: "after" },
    ],
  });
  const steps = agent._unstableLogContent().executions[0].steps;
  assert.deepEqual(steps.map((s) => s.title), ["before", "after"]);
  assert.notEqual(steps[0].screenshot, steps[1].screenshot);
  await agent.destroy();
});

test("recordToReport rejects both screenshots and screenshotBase64", async () => {
  const page = await env.open("list.html");
  const agent = new DriverBPageAgent(page, { autoPrintReportMsg: false, generateReport: false });
  await assert.rejects(
    agent.recordToReport("x", { screenshots: [], screenshotBase64: "iVBORw0KGgo=" }),
    (e: unknown) =>
      e instanceof TypeError && /only one of 'screenshots' and 'screenshotBase64'/.test(e.message),
  );
  assert.deepEqual(agent._unstableLogContent().executions, []);
  await agent.destroy();
});

test("_unstableLogContent lists every call with its steps and returns a copy", async () => {
  const page = await env.open("actions.html");
  const { agent } = await env.agent(page, {
    locate: async () => {
      const b = (await page.locator("#click-button").boundingBox())!;
      return { left: b.x, top: b.y, width: b.width, height: b.height };
    },
    extract: () => 1,
  });
  await agent.aiTap("the Click me button");
  await agent.aiNumber("clicks");
  const log = agent._unstableLogContent();
  assert.deepEqual(log.executions.map((e) => e.apiName), ["aiTap", "aiNumber"]);
  assert.deepEqual(log.executions[0].steps.map((s) => s.kind), ["Locate", "Action"]);
  log.executions.length = 0;
  assert.equal(agent._unstableLogContent().executions.length, 2);
});
