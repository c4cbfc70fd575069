/**
 * The traps of a plan of several actions (issue 34, docs/model-protocol.md, "Several actions per
 * plan"): a scripted model answers every action it can see in one plan, and one action of the plan
 * has its target moved from under it by an earlier one (a new row, "Clear completed", a filter, a
 * popover). The action must be dropped, not performed on whatever took its place; the next
 * planning request's history must name it and say its target changed; and the task must still end
 * as asked. Both drivers; the fixture is `tests/fixtures/app/todos.html`, the traps and the model
 * `tests/helpers/plan_traps.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { PlanCall } from "@sdk/core/testing";
import {
  hits,
  performedKeys,
  readTodosView,
  trapModel,
  TRAPS,
  wrongTargets,
} from "../helpers/plan_traps.ts";
import { driverTest } from "./_drivers.ts";

/** `text` as a regular expression matching it literally. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

for (const trap of TRAPS) {
  driverTest(
    `${trap.name}: the planned action whose target changed is dropped, not performed on what took its place; the next plan's history says so; the task ends right`,
    async (e2e) => {
      const page = await e2e.open(trap.path);
      const scripted = trapModel(page, trap);
      const { agent, model } = await e2e.agent(page, {
        plan: (call: PlanCall) => scripted.plan(call),
      });
      await agent.aiAct(trap.instruction);
      const view = await page.evaluate(readTodosView, undefined);
      const steps = agent._unstableLogContent().executions.at(-1)!.steps;
      const summary = JSON.stringify({
        answers: scripted.answers.map((a) => a.steps.map((s) => s.log)),
        events: view.events,
      });

      // The trap was set: a plan (of the default 5 actions at most) held the action, on the
      // screen before the earlier actions of that plan moved its target.
      assert.equal(model.calls[0].call?.kind === "plan" && model.calls[0].call.maxActions, 5);
      const setIn = scripted.answers.findIndex((a) =>
        a.steps.length > 1 && a.steps.slice(1).some((s) => s.log === trap.dropped)
      );
      assert.ok(setIn >= 0, `no plan batched "${trap.dropped}" after another action: ${summary}`);

      // Nothing was performed on a changed target: every press hit the element planned.
      const pressed = hits(view.events);
      assert.ok(
        !pressed.includes(trap.intruder),
        `"${trap.dropped}" was performed on ${trap.intruder}: ${summary}`,
      );
      assert.deepEqual(wrongTargets(performedKeys(scripted, steps), pressed), [], summary);

      // The task still ends as asked.
      assert.ok(trap.ended(view), `the page did not end as asked: ${summary}`);

      // The next planning request (as the model server received it) names the dropped action,
      // and says its target changed.
      const plans = model.calls.filter((c) => c.kind === "plan");
      assert.ok(plans.length > setIn + 1, `no planning call after the drop: ${summary}`);
      const next = plans[setIn + 1].call!;
      assert.ok(next.kind === "plan");
      assert.ok(
        !next.history.includes(trap.dropped),
        `the history says "${trap.dropped}" was done: ${JSON.stringify(next.history)}`,
      );
      const line = next.history.find((l) => l.startsWith(`(not done: ${trap.dropped}; `));
      assert.ok(
        line,
        `the history does not name "${trap.dropped}": ${JSON.stringify(next.history)}`,
      );
      assert.match(line, /target changed/i, `the history does not say its target changed: ${line}`);
      const body = JSON.stringify(plans[setIn + 1].request);
      assert.match(body, new RegExp(literally(JSON.stringify(line).slice(1, -1))));

      // The report shows it not performed.
      assert.ok(
        steps.some((s) => s.kind === "Log" && s.title === `Not performed: ${trap.dropped}`),
        "the report has no 'Not performed' step for it",
      );
    },
  );
}

driverTest(
  "the same traps one action per plan: every task ends right with no action on a changed target (the scripted model is sound)",
  async (e2e) => {
    for (const trap of TRAPS) {
      const page = await e2e.open(trap.path);
      const scripted = trapModel(page, trap);
      const { agent, model } = await e2e.agent(page, {
        plan: (call: PlanCall) => scripted.plan(call),
      }, { maxActionsPerPlan: 1 });
      await agent.aiAct(trap.instruction);
      const view = await page.evaluate(readTodosView, undefined);
      const steps = agent._unstableLogContent().executions.at(-1)!.steps;
      const summary = `${trap.name}: ${JSON.stringify(view.events)}`;
      assert.ok(trap.ended(view), summary);
      assert.deepEqual(
        wrongTargets(performedKeys(scripted, steps), hits(view.events)),
        [],
        summary,
      );
      assert.ok(model.calls.every((c) => c.call?.kind !== "plan" || c.call.maxActions === 1));
    }
  },
);
