import assert from "node:assert/strict";
import { ModelResponseError, PlanningError } from "@sdk/core";
import { appModelScript, locateTarget, todoItems } from "../helpers/app_model.ts";
import { driverTest } from "./_drivers.ts";

driverTest(
  "aiAct signs in and adds a todo over several planned steps, then the page holds the item",
  async (env) => {
    const page = await env.open("login.html");
    const { agent, model } = await env.agent(page, appModelScript(page.appView()));
    const output = await agent.aiAct(
      "Sign in as alice with password secret, then add the todo item 'Call the plumber'",
    );
    assert.equal(output, 'Added "Call the plumber"');
    assert.match(page.url(), /list\.html$/);
    assert.equal(await page.evaluate(() => sessionStorage.getItem("user")), "alice");
    assert.ok((await todoItems(page.appView())).includes("Call the plumber"));
    // Username, password, sign in, item text, add, then "finished": six planning calls, each with
    // the history of what was done before it.
    const plans = model.calls.filter((c) => c.kind === "plan");
    assert.equal(plans.length, 6);
    const last = plans.at(-1)!.call as { history: string[] };
    assert.equal(last.history.length, 5);
    assert.match(last.history[2], /Sign in/);
  },
);

driverTest("aiAct's alias ai and deprecated aiAction run the same loop", async (env) => {
  const page = await env.open("actions.html");
  let taps = 0;
  const { agent } = await env.agent(page, {
    plan: async () =>
      taps++ === 0
        ? {
          log: "Tap the click button",
          action: {
            type: "Tap",
            param: {
              locate: { prompt: "Click me", box: (await locateTarget(page.appView(), "click"))! },
            },
          },
        }
        : { log: "done", finished: true, output: "clicked" },
  });
  assert.equal(await agent.ai("click the button once"), "clicked");
  taps = 0;
  assert.equal(await agent.aiAction("click the button once"), "clicked");
  assert.equal(await page.state("clicks"), 2);
});

driverTest("aiAct throws when the model reports the task impossible", async (env) => {
  const page = await env.open("actions.html");
  const { agent } = await env.agent(page, {
    plan: () => ({ log: "", error: "There is no checkout button on this page." }),
  });
  await assert.rejects(
    agent.aiAct("press checkout"),
    (e: unknown) => e instanceof PlanningError && /no checkout button/.test(e.message),
  );
});

driverTest("aiAct stops at replanningCycleLimit with an error naming the limit", async (env) => {
  const page = await env.open("actions.html");
  const { agent, model } = await env.agent(page, {
    plan: async () => ({
      log: "Tap the click button",
      action: {
        type: "Tap",
        param: {
          locate: { prompt: "Click me", box: (await locateTarget(page.appView(), "click"))! },
        },
      },
    }),
  }, { replanningCycleLimit: 3 });
  await assert.rejects(
    agent.aiAct("click forever"),
    (e: unknown) => e instanceof PlanningError && /replanningCycleLimit \(3\)/.test(e.message),
  );
  assert.equal(model.calls.filter((c) => c.kind === "plan").length, 3);
  assert.equal(await page.state("clicks"), 3);
});

driverTest("aiAct stops with the signal's reason when abortSignal aborts mid-task", async (env) => {
  const page = await env.open("actions.html");
  const controller = new AbortController();
  let plans = 0;
  const { agent } = await env.agent(page, {
    plan: async () => {
      if (++plans === 2) controller.abort(new Error("user cancelled"));
      return {
        log: "Tap the click button",
        action: {
          type: "Tap",
          param: {
            locate: { prompt: "Click me", box: (await locateTarget(page.appView(), "click"))! },
          },
        },
      };
    },
  });
  await assert.rejects(
    agent.aiAct("click forever", { abortSignal: controller.signal }),
    /user cancelled/,
  );
  // The first planned tap ran; the second plan's answer arrived after the abort and was not acted on.
  assert.equal(await page.state("clicks"), 1);
  assert.equal(plans, 2);
});

driverTest(
  "aiAct with deepThink: true plans without boxes and locates in a separate call",
  async (env) => {
    const page = await env.open("actions.html");
    let done = false;
    const { agent, model } = await env.agent(page, {
      plan: (call) => {
        assert.doesNotMatch(call.systemPrompt, /"bbox"/);
        if (done) return { log: "done", finished: true };
        done = true;
        return {
          log: "Double-click",
          action: { type: "DoubleClick", param: { locate: { prompt: "the double-click button" } } },
        };
      },
      locate: (call) => locateTarget(page.appView(), call.target),
    });
    await agent.aiAct("double-click the button", { deepThink: true });
    assert.deepEqual(model.calls.map((c) => c.kind), ["plan", "locate", "plan"]);
    assert.equal(await page.state("doubleClicks"), 1);
  },
);

driverTest(
  "aiAct retries a planned action the device does not have once, then rejects with a ModelResponseError naming the actions it has",
  async (env) => {
    const page = await env.open("actions.html");
    const { agent, model } = await env.agent(page, {
      plan: () => ({ log: "launch", action: { type: "Launch", param: { uri: "com.example" } } }),
    });
    await assert.rejects(
      agent.aiAct("open the app"),
      (e: unknown) =>
        e instanceof ModelResponseError && /no action named "Launch"/.test(e.message) &&
        /Tap, /.test(e.message) && /even after one retry/.test(e.message),
    );
    assert.equal(model.calls.length, 2);
    assert.match(model.calls[1].call!.feedback!, /no action named "Launch"/);
  },
);
