/// <reference lib="dom" />
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { ModelConfigError } from "@sdk/core";
import type { AIUsageInfo, ModelClient } from "@sdk/core";
import { locateTarget } from "../helpers/app_model.ts";
import { driverTest } from "./_drivers.ts";

driverTest(
  "a missing model configuration fails before any action and names the variables",
  async (env) => {
    const page = await env.open("actions.html");
    const agent = env.pageAgent(page, {
      modelConfig: { SDK_MODEL_NAME: "some-model" },
      autoPrintReportMsg: false,
    });
    for (const call of [() => agent.aiTap("the Click me button"), () => agent.aiAct("click")]) {
      await assert.rejects(call(), (e: unknown) => {
        assert.ok(e instanceof ModelConfigError);
        assert.match(e.message, /SDK_MODEL_BASE_URL, SDK_MODEL_API_KEY are not set/);
        return true;
      });
    }
    assert.equal(await page.state("clicks"), 0);
    await agent.destroy();
    assert.equal(agent.reportFile, undefined);
  },
);

driverTest(
  "invalid agent options are rejected at construction with the value quoted",
  async (env) => {
    const page = await env.open("actions.html");
    assert.throws(
      () => env.pageAgent(page, { screenshotShrinkFactor: 0.5 }),
      /'screenshotShrinkFactor' must be a finite number >= 1: current value is 0.5/,
    );
    assert.throws(
      () => env.pageAgent(page, { waitForNavigationTimeout: -5 }),
      /'waitForNavigationTimeout' must be a finite number of ms >= 0: current value is -5/,
    );
    assert.throws(
      () => env.pageAgent(page, { replanningCycleLimit: 0 }),
      /'replanningCycleLimit' must be a positive integer/,
    );
  },
);

driverTest(
  "contexts reach the model: per-call over per-API over default, '' clears",
  async (env) => {
    const page = await env.open("actions.html");
    const { agent, model } = await env.agent(page, {
      locate: (call) => locateTarget(page.appView(), call.target),
      extract: () => "x",
    }, { aiContexts: { default: "shared rules", aiTap: "tap rules" } });
    const contexts = () => model.calls.map((c) => c.call?.context);
    await agent.aiTap("the Click me button");
    await agent.aiTap("the Click me button", { context: "call rules" });
    await agent.aiString("anything");
    agent.setAIContext("aiString", "");
    await agent.aiString("anything");
    agent.setAIContext("aiTap", undefined);
    await agent.aiTap("the Click me button");
    assert.deepEqual(contexts(), [
      "tap rules",
      "call rules",
      "shared rules",
      undefined,
      "shared rules",
    ]);
  },
);

driverTest(
  "onLLMUsage fires once per model call and metrics add up by intent and model",
  async (env) => {
    const page = await env.open("list.html");
    const usages: AIUsageInfo[] = [];
    const { agent, model } = await env.agent(page, {
      locate: (call) => locateTarget(page.appView(), call.target),
      extract: () => 1,
    }, { onLLMUsage: (u) => usages.push(u) });
    await agent.aiTap("the new item field");
    await agent.aiNumber("one");
    await agent.aiNumber("one again");
    assert.equal(usages.length, 3);
    assert.deepEqual(usages.map((u) => u.intent), ["default", "insight", "insight"]);
    const sent = model.calls.map((c) => c.usage!);
    const m = agent.metrics;
    assert.equal(m.calls, 3);
    assert.equal(m.totalPromptTokens, sent.reduce((a, u) => a + u.promptTokens, 0));
    assert.equal(m.totalCompletionTokens, sent.reduce((a, u) => a + u.completionTokens, 0));
    assert.equal(m.totalCachedInput, sent.reduce((a, u) => a + u.cachedTokens, 0));
    assert.ok(m.totalCachedInput > 0, "the repeated system prompt is reported as cached");
    assert.equal(m.byIntent.insight.calls, 2);
    assert.equal(m.byIntent.default.calls, 1);
    assert.equal(m.byModel[model.modelName].calls, 3);
    assert.equal(
      m.byIntent.insight.cachedInputTokens + m.byIntent.default.cachedInputTokens,
      m.totalCachedInput,
    );
    assert.equal(m.byModel[model.modelName].cachedInputTokens, m.totalCachedInput);
    assert.ok(usages.every((u) => u.requestId && u.modelName === model.modelName));
  },
);

driverTest("an intent's own model name is used for its calls", async (env) => {
  const page = await env.open("list.html");
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page.appView(), call.target),
    extract: () => "x",
  });
  const insightAgent = env.pageAgent(page, {
    modelConfig: { ...model.modelConfig(), SDK_INSIGHT_MODEL_NAME: "insight-model" },
    autoPrintReportMsg: false,
    generateReport: false,
  });
  await insightAgent.aiString("x");
  await insightAgent.aiTap("the Add button");
  assert.deepEqual(model.calls.map((c) => c.call?.model), ["insight-model", model.modelName]);
  assert.deepEqual(
    Object.keys(insightAgent.metrics.byModel).sort(),
    ["insight-model", model.modelName].sort(),
  );
  await agent.destroy();
  await insightAgent.destroy();
});

driverTest("createModelClient wraps the client and receives the endpoint options", async (env) => {
  const page = await env.open("actions.html");
  const seen: Record<string, unknown>[] = [];
  let wrappedCalls = 0;
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page.appView(), call.target),
  }, {
    createModelClient: (client: ModelClient, options) => {
      seen.push(options);
      return Promise.resolve({
        chat: {
          completions: {
            create: (body, opts) => {
              wrappedCalls++;
              return client.chat.completions.create(body, opts);
            },
          },
        },
      });
    },
  });
  await agent.aiTap("the Click me button");
  await agent.aiTap("the Click me button");
  assert.equal(wrappedCalls, 2);
  assert.equal(seen.length, 1, "one client per endpoint");
  assert.equal(seen[0].baseURL, model.baseURL);
  assert.equal(seen[0].apiKey, model.apiKey);
  assert.equal(seen[0].dangerouslyAllowBrowser, true);
  assert.equal(await page.state("clicks"), 2);
});

driverTest("onTaskStartTip hears each task before it runs", async (env) => {
  const page = await env.open("actions.html");
  const tips: string[] = [];
  const { agent } = await env.agent(page, {
    locate: async (call) => {
      assert.equal(tips.length, 1, "the tip came before the model call");
      return await locateTarget(page.appView(), call.target);
    },
  }, { onTaskStartTip: (tip) => void tips.push(tip) });
  await agent.aiTap("the Click me button");
  assert.deepEqual(tips, ["aiTap: the Click me button"]);
});

driverTest("the API key never appears in the report", async (env) => {
  const page = await env.open("actions.html");
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page.appView(), call.target),
  }, { model: { apiKey: "sk-very-secret-key-123" } });
  await agent.aiTap("the Click me button");
  await agent.destroy();
  const html = await readFile(agent.reportFile!, "utf8");
  assert.ok(html.length > 1000);
  assert.ok(!html.includes(model.apiKey));
});

driverTest("a tap on a link waits for the new page to load", async (env) => {
  const page = await env.open("index.html");
  const { agent } = await env.agent(page, {
    locate: async () => {
      return await page.measure('a[href="list.html"]');
    },
  }, { waitAfterAction: 0 });
  await agent.aiTap("the Todo link");
  assert.match(page.url(), /list\.html$/);
  assert.equal(await page.evaluate(() => document.readyState), "complete");
  assert.equal(await page.state("page"), "list");
});
