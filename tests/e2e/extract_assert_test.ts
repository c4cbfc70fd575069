/// <reference lib="dom" />
import assert from "node:assert/strict";
import { AssertionError, WaitForTimeoutError } from "@sdk/core";
import { assertOnApp, extractFromApp, todoItems } from "../helpers/app_model.ts";
import { driverTest } from "./_drivers.ts";

driverTest("aiQuery returns the shape the model extracts from the page", async (env) => {
  const page = await env.open("list.html");
  const { agent, model } = await env.agent(page, {
    extract: (call) => extractFromApp(page.appView(), call.demand),
  });
  const items = await agent.aiQuery<string[]>("the todo items, as an array of strings");
  assert.deepEqual(items, await todoItems(page.appView()));
  assert.equal((model.calls[0].call as { returnType: string }).returnType, "any");
});

driverTest("aiBoolean, aiNumber, aiString and aiAsk coerce to their types", async (env) => {
  const page = await env.open("list.html");
  const answers: Record<string, unknown> = {
    boolean: "true",
    number: "3",
    string: 17,
  };
  const { agent } = await env.agent(page, {
    extract: (call) =>
      call.demand.includes("items count")
        ? page.appView().locator("#todo-list li").count()
        : answers[call.returnType],
  });
  assert.equal(await agent.aiBoolean("is the list visible?"), true);
  assert.equal(
    await agent.aiNumber("how many items count?"),
    await page.appView().locator("#todo-list li").count(),
  );
  assert.equal(await agent.aiNumber("a number"), 3);
  assert.equal(await agent.aiString("a string"), "17");
  assert.equal(await agent.aiAsk("a string"), "17");
});

driverTest("a value of the wrong type is an error quoting it", async (env) => {
  const page = await env.open("list.html");
  const { agent } = await env.agent(page, { extract: () => "many" });
  await assert.rejects(agent.aiNumber("how many?"), /returned "many" where a number was asked for/);
});

driverTest("screenshotIncluded: false sends no image", async (env) => {
  const page = await env.open("list.html");
  const { agent, model } = await env.agent(page, { extract: () => "ok" });
  await agent.aiString("say ok", { screenshotIncluded: false });
  assert.equal(model.calls[0].call?.image, null);
});

driverTest("aiAssert passes silently when the model finds the statement true", async (env) => {
  const page = await env.open("list.html");
  const { agent } = await env.agent(page, {
    assert: (call) => assertOnApp(page.appView(), call.assertion),
  });
  await agent.aiAssert("the list shows 'Walk the dog'");
});

driverTest(
  "aiAssert throws an AssertionError carrying errorMsg and the model's reason",
  async (env) => {
    const page = await env.open("list.html");
    const { agent } = await env.agent(page, {
      assert: (call) => assertOnApp(page.appView(), call.assertion),
    });
    await assert.rejects(
      agent.aiAssert("the list shows 'Fly to the moon'", "the new item is missing"),
      (e: unknown) => {
        assert.ok(e instanceof AssertionError);
        assert.equal(e.errorMsg, "the new item is missing");
        assert.equal(e.reason, 'The page does not show "Fly to the moon".');
        assert.match(e.message, /the new item is missing/);
        assert.match(e.message, /does not show "Fly to the moon"/);
        return true;
      },
    );
  },
);

driverTest("aiWaitFor returns once the page changes to satisfy the assertion", async (env) => {
  const page = await env.open("list.html");
  let checks = 0;
  const { agent, model } = await env.agent(page, {
    assert: async (call) => {
      const reply = await assertOnApp(page.appView(), call.assertion);
      // The page changes only after the first check has seen it unchanged.
      if (++checks === 1) {
        await page.fill("#new-item", "Late item");
        await page.evaluate(() => (document.querySelector("#add") as HTMLElement).click());
      }
      return reply;
    },
  });
  await agent.aiWaitFor("the list shows 'Late item'", { timeoutMs: 10000, checkIntervalMs: 200 });
  assert.ok((await todoItems(page.appView())).includes("Late item"));
  assert.equal(model.calls.length, 2, "the first check failed, the second passed");
});

driverTest(
  "aiWaitFor times out with the last reason when the condition never holds",
  async (env) => {
    const page = await env.open("list.html");
    const { agent, model } = await env.agent(page, {
      assert: (call) => assertOnApp(page.appView(), call.assertion),
    });
    await assert.rejects(
      agent.aiWaitFor("the list shows 'Never'", { timeoutMs: 500, checkIntervalMs: 200 }),
      (e: unknown) =>
        e instanceof WaitForTimeoutError && /timed out after 500 ms/.test(e.message) &&
        /does not show "Never"/.test(e.message),
    );
    // Checks start at least 200 ms apart and only inside the 500 ms window: at most 3 (0, 200,
    // 400 ms), fewer when a check itself is slow.
    assert.ok(model.calls.length >= 1 && model.calls.length <= 3, `${model.calls.length} checks`);
  },
);
