/**
 * Several actions per plan (docs/model-protocol.md, "Several actions per plan"): the planning
 * answer may carry `actions`, performed in order, each its own report step with its own
 * screenshot; before each further action the screen is checked, and a surprise (a navigation, a
 * dialog) drops the rest, which the report marks and the next planning call's history names.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { PlanCall, PlanReply } from "@sdk/core/testing";
import { after, test } from "../helpers/test.ts";
import { measure } from "../helpers/browser.ts";
import { appState, startE2e } from "./_setup.ts";

const env = await startE2e();
after(() => env.close());

const FIELDS: [string, string][] = [
  ["#first", "Ada"],
  ["#last", "Lovelace"],
  ["#email", "ada@example.com"],
  ["#city", "London"],
  ["#phone", "+44 20 7946 0000"],
];

/** An Input of `value` into the field `selector`, with its box measured on the page. */
async function input(page: Page, selector: string, value: string) {
  return {
    type: "Input",
    param: {
      locate: { prompt: `the ${selector} field`, box: await measure(page, selector) },
      value,
    },
    log: `type ${value} into ${selector}`,
  };
}

async function tap(page: Page, selector: string) {
  return {
    type: "Tap",
    param: { locate: { prompt: selector, box: await measure(page, selector) } },
    log: `tap ${selector}`,
  };
}

interface ProfileState {
  values: Record<string, string>;
  saves: number;
  dialogOpen: boolean;
  dialogOpened: number;
}

const profile = (page: Page) =>
  Promise.all(
    ["values", "saves", "dialogOpen", "dialogOpened"].map((k) => appState(page, k)),
  ).then(([values, saves, dialogOpen, dialogOpened]) =>
    ({ values, saves, dialogOpen, dialogOpened }) as ProfileState
  );

test("five fields in one plan, then the submit: two planning calls for six actions, each its own step with its own screenshot", async () => {
  const page = await env.open("profile.html");
  const { agent, model } = await env.agent(page, {
    plan: async (call: PlanCall): Promise<PlanReply> => {
      assert.equal(call.maxActions, 5, "the default maxActionsPerPlan");
      if (call.history.length === 0) {
        return {
          log: "fill the form",
          actions: await Promise.all(FIELDS.map(([s, v]) => input(page, s, v))),
        };
      }
      if ((await profile(page)).saves === 0) {
        return { log: "save", action: await tap(page, "#save"), finished: true };
      }
      return { log: "done", finished: true };
    },
  });
  await agent.aiAct("fill in the profile and save it");
  const state = await profile(page);
  assert.deepEqual(state.values, {
    first: "Ada",
    last: "Lovelace",
    email: "ada@example.com",
    city: "London",
    phone: "+44 20 7946 0000",
    promo: "",
  });
  assert.equal(state.saves, 1);
  assert.equal(model.calls.filter((c) => c.kind === "plan").length, 2);
  // The second call's history lists each action of the first plan by its own log.
  const second = model.calls[1].call!;
  assert.ok(second.kind === "plan");
  assert.deepEqual(second.history, FIELDS.map(([s, v]) => `type ${v} into ${s}`));
  const steps = agent._unstableLogContent().executions.at(-1)!.steps;
  const actions = steps.filter((s) => s.kind === "Action");
  assert.equal(actions.length, 6);
  const shots = actions.map((s) => s.screenshot);
  assert.ok(shots.every(Boolean), "every action step has a screenshot");
  assert.equal(new Set(shots.slice(0, 5)).size, 5, "each action of the plan its own screenshot");
});

test("maxActionsPerPlan 1 asks for one action per call, as before", async () => {
  const page = await env.open("profile.html");
  const { agent, model } = await env.agent(page, {
    plan: async (call) => {
      assert.equal(call.maxActions, 1);
      assert.match(call.systemPrompt, /"action": \{"type": string, "param": object\} \| null/);
      assert.doesNotMatch(call.systemPrompt, /"actions"/);
      const done = call.history.length;
      if (done < FIELDS.length) {
        return { log: `field ${done}`, action: await input(page, ...FIELDS[done]) };
      }
      return { log: "done", finished: true };
    },
  }, { maxActionsPerPlan: 1 });
  await agent.aiAct("fill in the profile");
  assert.equal(model.calls.length, FIELDS.length + 1);
  assert.equal((await profile(page)).values.phone, "+44 20 7946 0000");
});

test("a dialog opened by the plan's first action drops the rest: nothing runs after the surprise, the history says why, the task still ends right", async () => {
  const page = await env.open("profile.html");
  let plans = 0;
  let stateAfterFirstPlan: ProfileState | undefined;
  const { agent, model } = await env.agent(page, {
    plan: async (call) => {
      plans++;
      if (plans === 1) {
        return {
          log: "promo, city, save",
          actions: [
            await input(page, "#promo", "WELCOME"),
            await input(page, "#city", "Paris"),
            await tap(page, "#save"),
          ],
          // Said for the whole list: with its tail dropped the task is not done.
          finished: true,
        };
      }
      stateAfterFirstPlan ??= await profile(page);
      if ((await profile(page)).dialogOpen) {
        return { log: "close the dialog", action: await tap(page, "#dialog-close") };
      }
      if ((await profile(page)).values.city === "") {
        return {
          log: "city, save",
          actions: [await input(page, "#city", "Paris"), await tap(page, "#save")],
        };
      }
      return { log: "done", finished: true, output: String(call.history.length) };
    },
  });
  await agent.aiAct("fill in the promo code and the city, then save");
  assert.ok(stateAfterFirstPlan);
  assert.equal(stateAfterFirstPlan.dialogOpen, true);
  assert.equal(stateAfterFirstPlan.values.city, "", "nothing ran after the surprise");
  assert.equal(stateAfterFirstPlan.saves, 0);
  const second = model.calls[1].call!;
  assert.ok(second.kind === "plan");
  assert.equal(second.history[0], "type WELCOME into #promo");
  assert.match(
    second.history[1],
    /^\(not done: type Paris into #city; its target changed: div dialog "Promo codes .*" is at its point instead of input text "City"\)$/,
  );
  assert.match(second.history[2], /^\(not done: tap #save; /);
  const final = await profile(page);
  assert.deepEqual([final.values.city, final.saves, final.dialogOpen], ["Paris", 1, false]);
  const steps = agent._unstableLogContent().executions.at(-1)!.steps;
  const dropped = steps.filter((s) => s.kind === "Log" && s.title.startsWith("Not performed:"));
  assert.deepEqual(dropped.map((s) => s.title), [
    "Not performed: type Paris into #city",
    "Not performed: tap #save",
  ]);
  assert.match(dropped[0].thought ?? "", /Dropped before it ran: its target changed: div dialog/);
});

test("a navigation by the plan's first action drops the rest (the page's address changed)", async () => {
  const page = await env.open("profile.html");
  let plans = 0;
  const { agent, model } = await env.agent(page, {
    plan: async () => {
      plans++;
      if (plans === 1) {
        return {
          log: "home, then type",
          actions: [await tap(page, "#home-link"), await input(page, "#first", "Ada")],
        };
      }
      return { log: "done", finished: true };
    },
  });
  await agent.aiAct("go home");
  assert.match(page.url(), /index\.html$/);
  const second = model.calls[1].call!;
  assert.ok(second.kind === "plan");
  assert.match(
    second.history[1],
    /^\(not done: type Ada into #first; the screen's context changed \(.*profile\.html -> .*index\.html\)\)$/,
  );
});

test("actions beyond maxActionsPerPlan are not performed, and the report says so", async () => {
  const page = await env.open("profile.html");
  let plans = 0;
  const { agent } = await env.agent(page, {
    plan: async () => {
      plans++;
      if (plans > 1) return { log: "done", finished: true };
      return {
        log: "three fields",
        actions: await Promise.all(FIELDS.slice(0, 3).map(([s, v]) => input(page, s, v))),
      };
    },
  }, { maxActionsPerPlan: 2 });
  await agent.aiAct("fill two fields");
  const values = (await profile(page)).values;
  assert.deepEqual([values.first, values.last, values.email], ["Ada", "Lovelace", ""]);
  const steps = agent._unstableLogContent().executions.at(-1)!.steps;
  const notPerformed = steps.find((s) =>
    s.title === "Not performed: type ada@example.com into #email"
  );
  assert.match(notPerformed?.thought ?? "", /more than maxActionsPerPlan \(2\)/);
});

test("a plan that says finished while actions past maxActionsPerPlan were dropped plans again, and the dropped action is done", async () => {
  const page = await env.open("profile.html");
  const histories: string[][] = [];
  const { agent, model } = await env.agent(page, {
    plan: async (call) => {
      histories.push(call.history);
      if (histories.length === 1) {
        return {
          log: "three fields",
          actions: await Promise.all(FIELDS.slice(0, 3).map(([s, v]) => input(page, s, v))),
          // Said for the whole list: with its third action dropped the task is not done.
          finished: true,
          output: "too early",
        };
      }
      const values = (await profile(page)).values;
      if (values.email === "") {
        return { log: "the email", action: await input(page, ...FIELDS[2]) };
      }
      return { log: "done", finished: true, output: "all three" };
    },
  }, { maxActionsPerPlan: 2 });
  assert.equal(await agent.aiAct("fill the first three fields"), "all three");
  const values = (await profile(page)).values;
  assert.deepEqual(
    [values.first, values.last, values.email],
    ["Ada", "Lovelace", "ada@example.com"],
  );
  assert.equal(model.calls.filter((c) => c.kind === "plan").length, 3);
  // The second planning call saw the two actions done, and only them.
  assert.deepEqual(histories[1], ["type Ada into #first", "type Lovelace into #last"]);
});

test("maxActionsPerPlan must be a positive integer", async () => {
  const page = await env.open("profile.html");
  for (const bad of [0, 1.5, -2]) {
    await assert.rejects(
      env.agent(page, {}, { maxActionsPerPlan: bad }),
      (e: Error & { code?: string }) =>
        e instanceof RangeError && e.code === "ARGUMENT_OUT_OF_RANGE" &&
        /'maxActionsPerPlan' must be a positive integer/.test(e.message),
    );
  }
});

test("the cache records a batched plan's actions and replays them without a planning call", async () => {
  const cacheDir = await Deno.makeTempDir();
  const run = async () => {
    const page = await env.open("profile.html");
    const { agent, model } = await env.agent(page, {
      plan: async (call) =>
        call.history.length === 0
          ? {
            log: "fill",
            actions: await Promise.all(FIELDS.slice(0, 3).map(([s, v]) => input(page, s, v))),
            finished: true,
          }
          : { log: "done", finished: true },
    }, { cache: { id: "batched", cacheDir } });
    await agent.aiAct("fill the first three fields");
    await agent.destroy();
    return { values: (await profile(page)).values, plans: model.calls.length };
  };
  const first = await run();
  assert.equal(first.plans, 1);
  const second = await run();
  assert.equal(second.plans, 0, "replayed from the cache");
  assert.deepEqual(
    [second.values.first, second.values.last, second.values.email],
    ["Ada", "Lovelace", "ada@example.com"],
  );
});
